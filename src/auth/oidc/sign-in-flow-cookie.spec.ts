import {
  clearedSignInFlowCookie,
  SIGN_IN_FLOW_COOKIE,
  type SignInFlow,
  signInFlowCookie,
  signInFlowFrom,
} from './sign-in-flow-cookie.js';

const TOKEN = 'the-operator-token-0123456789';
const flow = (): SignInFlow => ({
  state: 'state-abc',
  nonce: 'nonce-def',
  codeVerifier: 'verifier-ghi-0123456789012345678901234567890123',
  redirect: '/console/runs/1',
  replaces: null,
  expiresAt: Date.now() + 600_000,
});
const valueOf = (setCookie: string) =>
  setCookie.split(';')[0].slice(SIGN_IN_FLOW_COOKIE.length + 1);

describe('sign-in flow cookie', () => {
  it('is httpOnly, Secure, SameSite=Lax, short-lived, and hides what it carries', () => {
    const original = flow();
    const setCookie = signInFlowCookie(original, TOKEN);
    expect(setCookie).toMatch(
      new RegExp(
        `^${SIGN_IN_FLOW_COOKIE}=[A-Za-z0-9_-]+; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=(599|600)$`,
      ),
    );
    for (const secret of [original.state, original.nonce, original.codeVerifier]) {
      expect(Buffer.from(valueOf(setCookie), 'base64url').toString('latin1')).not.toContain(secret);
    }
    expect(clearedSignInFlowCookie()).toMatch(/Max-Age=0$/);
  });

  it('gives back the flow it carries, among other cookies', () => {
    const original = flow();
    const value = valueOf(signInFlowCookie(original, TOKEN));
    expect(signInFlowFrom(`a=1; ${SIGN_IN_FLOW_COOKIE}=${value}; b=2`, TOKEN)).toEqual(original);
  });

  it('refuses a flow that was altered, sealed under another token, expired, or absent', () => {
    const value = valueOf(signInFlowCookie(flow(), TOKEN));
    const flipped = Buffer.from(value, 'base64url');
    flipped[flipped.length - 1] ^= 1;
    expect(
      signInFlowFrom(`${SIGN_IN_FLOW_COOKIE}=${flipped.toString('base64url')}`, TOKEN),
    ).toBeNull();
    expect(
      signInFlowFrom(`${SIGN_IN_FLOW_COOKIE}=${value}`, 'another-operator-token-01234'),
    ).toBeNull();
    expect(
      signInFlowFrom(`${SIGN_IN_FLOW_COOKIE}=${value}`, TOKEN, Date.now() + 601_000),
    ).toBeNull();
    expect(signInFlowFrom('a=1', TOKEN)).toBeNull();
    expect(signInFlowFrom(undefined, TOKEN)).toBeNull();
    expect(signInFlowFrom(`${SIGN_IN_FLOW_COOKIE}=not-a-flow`, TOKEN)).toBeNull();
  });
});
