import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../common/errors/api-error.js';
import { ErrorCode } from '../../common/errors/error-codes.js';
import type { StreamHolder } from '../../common/http/server-sent-events.js';
import { Settings } from '../../config/settings.js';
import type { SessionResponse, SignInDto } from './dto/session.dto.js';
import { clearedSessionCookie, sessionCookie, sessionSecretFrom } from './session-cookie.js';
import {
  csrfTokenMatches,
  csrfTokenOf,
  generateSessionSecret,
  hashSessionSecret,
} from './session-secret.js';
import { type LiveSession, SessionsRepository } from './sessions.repository.js';
import { OperatorTokenCheck } from './operator-token-check.js';
import type { OperatorIdentity } from '../oidc/operator-admission.js';

/** How long a console session lasts from sign-in. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60_000;
/** The header a state-changing call made with the session cookie echoes the CSRF token in. */
export const CSRF_HEADER = 'X-CSRF-Token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface RequestSession {
  secret: string;
  session: LiveSession;
}

/** What a signed-in browser gets: its session's description and the cookie that holds it. */
export interface SignedIn {
  session: SessionResponse;
  cookie: string;
}

const noSession = () =>
  new ApiError(
    401,
    ErrorCode.Unauthorized,
    'No live console session: sign in again.',
    {},
    { 'WWW-Authenticate': 'Bearer' },
  );

/** The operator token's streams: it cannot be signed out, so they end only when their client leaves. */
const OPERATOR_TOKEN: StreamHolder = { key: 'operator-token', stillAdmitted: async () => true };

/**
 * Console sign-in: server-side sessions in PostgreSQL, held by the browser in an httpOnly
 * cookie. The access guard admits internal-API calls with a live session (and, on a change,
 * its CSRF token) as it admits the operator token. Signing in with the token is one method; the
 * OpenID provider's sign-in (`../oidc/`) creates the same sessions through `open`.
 */
@Injectable()
export class SessionsService {
  /** Each request's session is looked up once, whoever asks (body check, guard, handler). */
  private readonly ofRequest = new WeakMap<Request, RequestSession | null>();

  constructor(
    private readonly settings: Settings,
    private readonly sessions: SessionsRepository,
    private readonly operatorToken: OperatorTokenCheck,
  ) {}

  /**
   * Signs in with the operator token (a wrong one counted against the caller's address, as
   * `OperatorTokenCheck` counts every door's). A session
   * the browser still held is ended: each sign-in gets a new secret, never an old one kept.
   */
  async signInWithToken(dto: SignInDto, req: Request): Promise<SignedIn> {
    const token = this.settings.adminToken;
    // Without an operator token the internal API, and so its sign-in, does not exist.
    if (token === null) throw ApiError.notFound();
    // With a provider configured, operators are who it says; the token stays for automation
    // (Authorization: Bearer), not for a browser's sign-in.
    if (this.settings.oidc !== null) {
      throw new ApiError(
        403,
        ErrorCode.InvalidRequest,
        'Sign in through the identity provider: the operator token cannot open a console session here.',
      );
    }
    if (!this.operatorToken.matches(req, dto.token)) {
      throw new ApiError(401, ErrorCode.Unauthorized, 'Wrong operator token.');
    }
    const held = this.heldSessionHash(req);
    if (held !== null) await this.sessions.delete(held);
    return this.open('token', { subject: 'operator', email: null }, token);
  }

  /**
   * Opens a session for the operator the provider vouched for (the OIDC callback has checked
   * who may sign in), ending the one the browser held when the sign-in started (`replaces`, its
   * stored hash, from `heldSessionHash`: the cross-site callback does not carry the cookie).
   * Like the token's sign-in, it gets a new secret: a session id planted before sign-in is
   * never the one signed in.
   */
  async signInWithProvider(identity: OperatorIdentity, replaces: string | null): Promise<SignedIn> {
    const token = this.settings.adminToken;
    if (token === null) throw ApiError.notFound();
    if (replaces !== null) await this.sessions.delete(replaces);
    return this.open('oidc', identity, token);
  }

  /** The stored hash of the session the request's cookie names (live or not), or null. */
  heldSessionHash(req: Request): string | null {
    const secret = sessionSecretFrom(req.get('cookie'));
    const token = this.settings.adminToken;
    return secret === null || token === null ? null : hashSessionSecret(secret, token);
  }

  /** Opens a session for `identity`, clearing expired ones while at it. */
  private async open(
    method: LiveSession['method'],
    identity: OperatorIdentity,
    operatorToken: string,
  ): Promise<SignedIn> {
    await this.sessions.deleteExpired();
    const secret = generateSessionSecret();
    const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
    const session = await this.sessions.insert(
      hashSessionSecret(secret, operatorToken),
      method,
      identity.subject,
      identity.email,
      expiresAt,
    );
    return {
      session: toSessionResponse(session, secret),
      cookie: sessionCookie(secret, session.expiresAt),
    };
  }

  /** The live session the request's cookie names, or null. */
  async sessionOf(req: Request): Promise<RequestSession | null> {
    if (this.ofRequest.has(req)) return this.ofRequest.get(req) ?? null;
    const secret = sessionSecretFrom(req.get('cookie'));
    const token = this.settings.adminToken;
    const session =
      secret === null || token === null
        ? null
        : await this.sessions.findLive(hashSessionSecret(secret, token));
    const found = secret !== null && session !== null ? { secret, session } : null;
    this.ofRequest.set(req, found);
    return found;
  }

  /**
   * Admits an internal-API call made with the session cookie: 401 without a live session,
   * 403 when a state-changing call does not echo the session's CSRF token.
   */
  async admit(req: Request): Promise<void> {
    const found = await this.sessionOf(req);
    if (found === null) throw noSession();
    if (SAFE_METHODS.has(req.method)) return;
    if (!csrfTokenMatches(found.secret, req.get(CSRF_HEADER))) {
      throw new ApiError(
        403,
        ErrorCode.CsrfTokenInvalid,
        `A change made with the console session needs its CSRF token in ${CSRF_HEADER}.`,
      );
    }
  }

  /**
   * Who holds a live stream the request opens, as the access guard admitted it: the operator
   * token when `Authorization` came, else the request's session, looked up afresh on each
   * heartbeat so that the stream ends once the session is signed out or has expired.
   */
  async streamHolder(req: Request): Promise<StreamHolder> {
    if (req.get('authorization') !== undefined) return OPERATOR_TOKEN;
    const found = await this.sessionOf(req);
    const secretHash = this.heldSessionHash(req);
    if (found === null || secretHash === null) throw noSession();
    return {
      key: `session:${found.session.id}`,
      stillAdmitted: async () => (await this.sessions.findLive(secretHash)) !== null,
    };
  }

  /** The request's session, for the page that has just loaded. */
  async describe(req: Request): Promise<SessionResponse> {
    const found = await this.sessionOf(req);
    if (found === null) throw noSession();
    return toSessionResponse(found.session, found.secret);
  }

  /** Ends the request's session (if any); returns the cookie that clears it in the browser. */
  async signOut(req: Request): Promise<string> {
    const found = await this.sessionOf(req);
    const token = this.settings.adminToken;
    if (found !== null && token !== null)
      await this.sessions.delete(hashSessionSecret(found.secret, token));
    this.ofRequest.set(req, null);
    return clearedSessionCookie();
  }
}

function toSessionResponse(session: LiveSession, secret: string): SessionResponse {
  return {
    method: session.method,
    subject: session.subject,
    email: session.email,
    expires_at: session.expiresAt.toISOString(),
    csrf_token: csrfTokenOf(secret),
  };
}
