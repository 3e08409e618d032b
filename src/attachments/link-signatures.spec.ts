import { randomBytes } from 'node:crypto';
import { linkIsValid, signLink, type SignedLink } from './link-signatures.js';

describe('link signatures', () => {
  const secret = randomBytes(32);
  const link: SignedLink = {
    attachmentId: '0190a5b2-0000-7000-8000-000000000001',
    action: 'upload',
    expires: 2_000_000_000,
  };
  const signature = signLink(secret, link);

  it('accept the link they were made for until it expires', () => {
    expect(linkIsValid(secret, link, signature, link.expires - 1)).toBe(true);
    expect(linkIsValid(secret, link, signature, link.expires + 1)).toBe(false);
  });

  it('refuse the signature on another attachment, action or expiry', () => {
    const now = link.expires - 100;
    const other = { ...link, attachmentId: '0190a5b2-0000-7000-8000-000000000002' };
    expect(linkIsValid(secret, other, signature, now)).toBe(false);
    expect(linkIsValid(secret, { ...link, action: 'download' }, signature, now)).toBe(false);
    expect(linkIsValid(secret, { ...link, expires: link.expires + 60 }, signature, now)).toBe(
      false,
    );
  });

  it('refuse a tampered or malformed signature and another secret', () => {
    const now = link.expires - 100;
    const flipped = (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1);
    expect(linkIsValid(secret, link, flipped, now)).toBe(false);
    expect(linkIsValid(secret, link, signature.slice(2), now)).toBe(false);
    expect(linkIsValid(secret, link, 'zz' + signature.slice(2), now)).toBe(false);
    expect(linkIsValid(randomBytes(32), link, signature, now)).toBe(false);
  });
});
