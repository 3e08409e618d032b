import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * What a sign-in through the provider must remember between leaving for the provider and
 * coming back: the PKCE verifier, the state and nonce it sent, and the console page to land on.
 */
export interface SignInFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirect: string;
  /**
   * The stored hash of the session the browser held when it started, ended once the new one
   * opens (the callback cannot name it: the Strict session cookie does not come cross-site).
   */
  replaces: string | null;
  /** Epoch milliseconds after which the flow is refused. */
  expiresAt: number;
}

/**
 * The flow lives in the browser that started it, in a cookie of its own: AES-256-GCM under a
 * key derived from the operator token, so the browser can neither read the verifier and nonce
 * nor forge or alter a flow, and any replica can finish it (nothing kept per process).
 * `SameSite=Lax`, unlike the session's Strict: the provider's redirect back is a cross-site
 * navigation, and Lax is what lets this cookie (and only on a top-level GET) come along.
 */
export const SIGN_IN_FLOW_COOKIE = '__Host-tm_oidc_flow';
export const SIGN_IN_FLOW_LIFETIME_MS = 10 * 60_000;
const ATTRIBUTES = 'Path=/; HttpOnly; Secure; SameSite=Lax';

function keyOf(operatorToken: string): Buffer {
  return Buffer.from(hkdfSync('sha256', operatorToken, 'tm-console', 'oidc-sign-in-flow-v1', 32));
}

/** The Set-Cookie value that carries `flow`, sealed. */
export function signInFlowCookie(flow: SignInFlow, operatorToken: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(operatorToken), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final()]);
  const value = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  const maxAge = Math.max(0, Math.floor((flow.expiresAt - Date.now()) / 1000));
  return `${SIGN_IN_FLOW_COOKIE}=${value}; ${ATTRIBUTES}; Max-Age=${maxAge}`;
}

/** The Set-Cookie value that ends the flow: a callback is answered once. */
export function clearedSignInFlowCookie(): string {
  return `${SIGN_IN_FLOW_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;
}

/** The unexpired flow a Cookie header carries, or null (absent, altered, sealed with another key). */
export function signInFlowFrom(
  cookieHeader: string | undefined,
  operatorToken: string,
  now = Date.now(),
): SignInFlow | null {
  const value = cookieValue(cookieHeader, SIGN_IN_FLOW_COOKIE);
  if (value === null || !/^[A-Za-z0-9_-]{40,4096}$/.test(value)) return null;
  const bytes = Buffer.from(value, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(operatorToken), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
    const flow = JSON.parse(plain.toString('utf8')) as SignInFlow;
    return typeof flow.expiresAt === 'number' && flow.expiresAt > now ? flow : null;
  } catch {
    return null;
  }
}

function cookieValue(cookieHeader: string | undefined, name: string): string | null {
  if (cookieHeader === undefined) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq >= 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
