import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a link of the service's own lets its bearer do with one attachment. */
export type LinkAction = 'upload' | 'download';

export interface SignedLink {
  attachmentId: string;
  action: LinkAction;
  /** Unix seconds after which the link is refused. */
  expires: number;
}

/**
 * The signature of a link to the service's own upload or download route: an HMAC-SHA256 over
 * the attachment, the action (which fixes the method) and the expiry, so a link cannot be
 * moved to another attachment, used for the other action, or kept past its time.
 */
export function signLink(secret: Buffer, link: SignedLink): string {
  return createHmac('sha256', secret)
    .update(`${link.action}\n${link.attachmentId}\n${link.expires}`)
    .digest('hex');
}

/** Whether `signature` is the link's, compared in constant time, and the link still valid. */
export function linkIsValid(
  secret: Buffer,
  link: SignedLink,
  signature: string,
  nowSeconds: number,
): boolean {
  if (!Number.isSafeInteger(link.expires) || link.expires < nowSeconds) return false;
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signLink(secret, link), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
