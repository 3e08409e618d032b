import {
  apiKeyFromAuthorization,
  generateApiKey,
  hashApiKey,
  secretsEqual,
} from './api-key-format.js';

describe('API key format', () => {
  it('generates svc_live_ keys of 64 lowercase hex characters, with hash and display prefix', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^svc_live_[0-9a-f]{64}$/);
    expect(prefix).toBe(key.slice(0, 17));
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(generateApiKey().key).not.toBe(key);
  });

  it('accepts exactly "Bearer <key>"', () => {
    const key = `svc_live_${'a1'.repeat(16)}`;
    expect(apiKeyFromAuthorization(`Bearer ${key}`)).toBe(key);
  });

  it.each([
    ['missing', undefined],
    ['another scheme', `Token svc_live_${'a'.repeat(32)}`],
    ['lowercase scheme', `bearer svc_live_${'a'.repeat(32)}`],
    ['two spaces', `Bearer  svc_live_${'a'.repeat(32)}`],
    ['trailing space', `Bearer svc_live_${'a'.repeat(32)} `],
    ['wrong prefix', `Bearer svc_test_${'a'.repeat(32)}`],
    ['uppercase hex', `Bearer svc_live_${'A'.repeat(32)}`],
    ['too short', `Bearer svc_live_${'a'.repeat(31)}`],
    ['not hex', `Bearer svc_live_${'g'.repeat(32)}`],
  ])('refuses %s', (_case, header) => {
    expect(apiKeyFromAuthorization(header)).toBeNull();
  });

  it('compares secrets of any length', () => {
    expect(secretsEqual('operator-token-123', 'operator-token-123')).toBe(true);
    expect(secretsEqual('operator-token-124', 'operator-token-123')).toBe(false);
    expect(secretsEqual('short', 'operator-token-123')).toBe(false);
  });
});
