import { ApiError } from '../../common/errors/api-error.js';
import {
  SIGN_IN_FAILURES_ALLOWED,
  SIGN_IN_FAILURES_ALLOWED_IN_ALL,
  SIGN_IN_WINDOW_MS,
  SignInThrottle,
} from './sign-in-throttle.js';

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

  it('refuses every address once all of them together have used up the allowance', () => {
    // One failure from each of many addresses: what a forged X-Forwarded-For would look like.
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED_IN_ALL; i++) {
      expect(refusal(`10.0.${i >> 8}.${i & 255}`)).toBeNull();
      throttle.failed(`10.0.${i >> 8}.${i & 255}`);
    }
    const error = refusal('192.0.2.7');
    expect(error?.getStatus()).toBe(429);
    expect(error?.message).toBe('Too many failed sign-ins; try again later.');
    expect(error?.headers['Retry-After']).toBe(String(SIGN_IN_WINDOW_MS / 1000));
    // A success does not reopen it for the others; the window's end does.
    throttle.succeeded('10.0.0.1');
    expect(refusal('192.0.2.7')).not.toBeNull();
    now += SIGN_IN_WINDOW_MS;
    expect(refusal('192.0.2.7')).toBeNull();
  });
});
