import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import * as oidc from 'openid-client';
import { ApiError } from '../../common/errors/api-error.js';
import { Settings } from '../../config/settings.js';
import { secretsEqual } from '../api-key-format.js';
import type { SignInOptionsResponse } from '../sessions/dto/session.dto.js';
import { SessionsService } from '../sessions/sessions.service.js';
import {
  describeProviderError,
  IdentityProvider,
  ProviderUnavailable,
} from './identity-provider.js';
import { admitOperator, type SignInRefusal } from './operator-admission.js';
import { consoleRedirectTarget } from './redirect-target.js';
import {
  clearedSignInFlowCookie,
  SIGN_IN_FLOW_LIFETIME_MS,
  type SignInFlow,
  signInFlowCookie,
  signInFlowFrom,
} from './sign-in-flow-cookie.js';

/** Where the browser goes next, and the cookies it is given on the way. */
export interface SignInStep {
  location: string;
  cookies: string[];
}

const SIGN_IN_PAGE = '/console/sign-in';

/** The sign-in page, saying why the provider's sign-in did not open a session. */
function refusedPage(refusal: SignInRefusal): string {
  return `${SIGN_IN_PAGE}?refused=${refusal}`;
}

/**
 * Signing in to the console through the OpenID provider: authorization code with PKCE (S256),
 * state and nonce. `start` sends the browser to the provider with the flow sealed in a cookie;
 * `finish` takes it back, checks the flow, the tokens and who may be an operator, and opens the
 * same kind of session the operator token opens. A refusal never opens a session and always
 * lands on the sign-in page with its reason; codes, tokens and secrets are never logged.
 */
@Injectable()
export class OidcSignInService {
  private readonly logger = new Logger(OidcSignInService.name);

  constructor(
    private readonly settings: Settings,
    private readonly provider: IdentityProvider,
    private readonly sessions: SessionsService,
  ) {}

  /** How the sign-in page signs in (404 without the internal API, as every internal route). */
  options(): SignInOptionsResponse {
    if (this.settings.adminToken === null) throw ApiError.notFound();
    const oidcSettings = this.settings.oidc;
    return oidcSettings === null
      ? { method: 'token', provider: null }
      : { method: 'oidc', provider: oidcSettings.providerName };
  }

  /**
   * Leaves for the provider, to come back to `redirect` (a console page) once signed in. The
   * session the browser holds is named in the flow (its stored hash, sealed), to be ended when
   * the new one opens: the provider's redirect back is cross-site, so the SameSite=Strict
   * session cookie does not come with it, and this request (same-site, from the sign-in page)
   * is the last that can name it. A sign-in abandoned or refused leaves it as it was.
   */
  async start(req: Request, redirect: unknown): Promise<SignInStep> {
    const token = this.operatorToken();
    const flow: SignInFlow = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      redirect: consoleRedirectTarget(redirect),
      replaces: this.sessions.heldSessionHash(req),
      expiresAt: Date.now() + SIGN_IN_FLOW_LIFETIME_MS,
    };
    try {
      const url = await this.provider.authorizationUrl(flow);
      return { location: url.href, cookies: [signInFlowCookie(flow, token)] };
    } catch (error) {
      if (!(error instanceof ProviderUnavailable)) {
        this.logger.warn(`OIDC sign-in could not start: ${describeProviderError(error)}`);
      }
      return { location: refusedPage('provider_unavailable'), cookies: [] };
    }
  }

  /** The provider's redirect back: a session and the page asked for, or the sign-in page. */
  async finish(req: Request): Promise<SignInStep> {
    const token = this.operatorToken();
    // Whatever happens, the flow is used up: the same callback is never answered twice.
    const cookies = [clearedSignInFlowCookie()];
    const refuse = (refusal: SignInRefusal, detail: string): SignInStep => {
      this.logger.log(`OIDC sign-in refused (${refusal}): ${detail}`);
      return { location: refusedPage(refusal), cookies };
    };
    const flow = signInFlowFrom(req.get('cookie'), token);
    if (flow === null) return refuse('expired', 'no live sign-in flow in this browser');
    const state = req.query.state;
    if (typeof state !== 'string' || !secretsEqual(state, flow.state)) {
      return refuse('state', 'the state does not match the one this browser was sent with');
    }
    const providerError = req.query.error;
    if (providerError !== undefined) {
      const code = typeof providerError === 'string' ? providerError.slice(0, 64) : 'malformed';
      return refuse('provider_error', `the provider answered ${JSON.stringify(code)}`);
    }
    let claims: Record<string, unknown>;
    try {
      claims = await this.provider.claimsOf(this.callbackUrl(req), flow);
    } catch (error) {
      if (error instanceof ProviderUnavailable) {
        return refuse('provider_unavailable', 'discovery failed');
      }
      return refuse('provider_error', describeProviderError(error));
    }
    const admission = admitOperator(claims, this.oidcSettings());
    if (!admission.admitted) {
      return refuse(admission.refusal, `subject ${JSON.stringify(String(claims.sub ?? ''))}`);
    }
    // A new secret, whatever the browser held: a planted session is never the one signed in.
    const signedIn = await this.sessions.signInWithProvider(
      admission.identity,
      // A flow sealed before `replaces` existed has none.
      flow.replaces ?? null,
    );
    this.logger.log(`OIDC sign-in of subject ${JSON.stringify(admission.identity.subject)}`);
    return { location: flow.redirect, cookies: [...cookies, signedIn.cookie] };
  }

  /**
   * The callback's URL as the provider was told it (`PUBLIC_URL`), with the query the browser
   * brought: never built from the request's Host header, which a client chooses.
   */
  private callbackUrl(req: Request): URL {
    const url = new URL(this.oidcSettings().redirectUri);
    const query = req.originalUrl.indexOf('?');
    url.search = query < 0 ? '' : req.originalUrl.slice(query);
    return url;
  }

  private oidcSettings() {
    if (this.settings.oidc === null) throw ApiError.notFound();
    return this.settings.oidc;
  }

  /** The flow's key; both OIDC routes are 404 unless OIDC (and so the operator token) is set. */
  private operatorToken(): string {
    const token = this.settings.adminToken;
    if (token === null || this.settings.oidc === null) throw ApiError.notFound();
    return token;
  }
}
