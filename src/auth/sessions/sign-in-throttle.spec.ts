import { ApiError } from '../../common/errors/api-error.js';
import {
  SIGN_IN_FAILURES_ALLOWED,
  SIGN_IN_FAILURES_WORTH_A_WARNING,
  SIGN_IN_WINDOW_MS,
  SignInThrottle,
} from './sign-in-throttle.js';
import { addressKey as throttleKey } from '../../common/http/address-key.js';

describe('SignInThrottle', () => {
  let now: number;
  let throttle: SignInThrottle;
  beforeEach(() => {
    now = 1_000_000;
    throttle = new SignInThrottle(() => now);
  });

  const refusal = (client: string): ApiError | null => {
    try {
      throttle.check(client);
      return null;
    } catch (error) {
      return error as ApiError;
    }
  };

  it('lets an address fail up to the allowance, then refuses it with 429 and Retry-After', () => {
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED; i++) {
      expect(refusal('a')).toBeNull();
      throttle.failed('a');
    }
    now += 60_000;
    const error = refusal('a');
    expect(error?.getStatus()).toBe(429);
    expect(error?.headers['Retry-After']).toBe(String((SIGN_IN_WINDOW_MS - 60_000) / 1000));
    expect(refusal('b')).toBeNull();
  });

  it('lets the address try again once its window has ended', () => {
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED; i++) throttle.failed('a');
    now += SIGN_IN_WINDOW_MS - 1;
    expect(refusal('a')).not.toBeNull();
    now += 1;
    expect(refusal('a')).toBeNull();
  });

  it('forgets the failures of an address that signs in', () => {
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED - 1; i++) throttle.failed('a');
    throttle.succeeded('a');
    throttle.failed('a');
    expect(refusal('a')).toBeNull();
  });

  it('does not lock anyone else out when many addresses fail, but reports it once per window', () => {
    // One failure from each of many addresses: what a forged X-Forwarded-For would look like.
    const reports: (number | null)[] = [];
    for (let i = 0; i < 2 * SIGN_IN_FAILURES_WORTH_A_WARNING; i++) {
      reports.push(throttle.failed(`10.0.${i >> 8}.${i & 255}`));
    }
    expect(reports.filter((report) => report !== null)).toEqual([SIGN_IN_FAILURES_WORTH_A_WARNING]);
    expect(refusal('192.0.2.7')).toBeNull();
    now += SIGN_IN_WINDOW_MS;
    for (let i = 0; i < SIGN_IN_FAILURES_WORTH_A_WARNING - 1; i++) throttle.failed(`10.1.0.${i}`);
    expect(throttle.failed('10.1.1.1')).toBe(SIGN_IN_FAILURES_WORTH_A_WARNING);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one', () => {
    expect(throttleKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(throttleKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(throttleKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(throttleKey('::1')).toBe('0:0:0:0::/64');
    expect(throttleKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(throttleKey('192.0.2.1')).toBe('192.0.2.1');
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED; i++) throttle.failed(`2001:db8:1:2::${i + 1}`);
    expect(refusal('2001:db8:1:2:ffff::9')?.getStatus()).toBe(429);
    expect(refusal('2001:db8:1:3::1')).toBeNull();
  });
});
