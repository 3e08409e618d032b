import { Injectable, Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import { isLoopbackUrl, type OidcSettings, Settings } from '../../config/settings.js';
import type { SignInFlow } from './sign-in-flow-cookie.js';

/** The provider's metadata could not be fetched: it is down, or not where `OIDC_ISSUER` says. */
export class ProviderUnavailable extends Error {}

const DISCOVERY_ATTEMPTS = 2;
const DISCOVERY_RETRY_MS = 1_000;
/** Seconds each request to the provider may take (discovery, token, userinfo, keys). */
const PROVIDER_TIMEOUT_S = 10;

/**
 * The configured OpenID provider, through `openid-client`. Its metadata is discovered at the
 * first sign-in, not at start (the service starts while the provider is down); a failed
 * discovery is retried once at once, and forgotten so that the next sign-in tries again.
 */
@Injectable()
export class IdentityProvider {
  private readonly logger = new Logger(IdentityProvider.name);
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(private readonly settings: Settings) {}

  private get oidcSettings(): OidcSettings {
    if (this.settings.oidc === null) throw new Error('OIDC is not configured');
    return this.settings.oidc;
  }

  /** The provider's authorization URL for `flow` (code, PKCE S256, state, nonce). */
  async authorizationUrl(flow: SignInFlow): Promise<URL> {
    const settings = this.oidcSettings;
    return oidc.buildAuthorizationUrl(await this.discovered(), {
      redirect_uri: settings.redirectUri,
      scope: settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
  }

  /**
   * Exchanges the callback's code and returns the user's claims: the validated ID token's
   * (signature, issuer, audience, expiry, nonce), completed by userinfo for what it lacks.
   */
  async claimsOf(callbackUrl: URL, flow: SignInFlow): Promise<Record<string, unknown>> {
    const configuration = await this.discovered();
    const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (claims === undefined) throw new Error('no ID token');
    const { groupsClaim } = this.oidcSettings;
    const lacking = claims.email === undefined || claims[groupsClaim] === undefined;
    if (!lacking || configuration.serverMetadata().userinfo_endpoint === undefined) return claims;
    const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    return { ...userInfo, ...claims };
  }

  private discovered(): Promise<oidc.Configuration> {
    if (this.configuration === null) {
      const pending = this.discover();
      this.configuration = pending;
      pending.catch(() => {
        if (this.configuration === pending) this.configuration = null;
      });
    }
    return this.configuration;
  }

  private async discover(): Promise<oidc.Configuration> {
    const settings = this.oidcSettings;
    const options: oidc.DiscoveryRequestOptions = { timeout: PROVIDER_TIMEOUT_S };
    if (isLoopbackUrl(settings.issuer)) options.execute = [oidc.allowInsecureRequests];
    for (let attempt = 1; ; attempt++) {
      try {
        const configuration = await oidc.discovery(
          new URL(settings.issuer),
          settings.clientId,
          undefined,
          oidc.ClientSecretBasic(settings.clientSecret),
          options,
        );
        configuration.timeout = PROVIDER_TIMEOUT_S;
        return configuration;
      } catch (error) {
        this.logger.warn(
          `OIDC discovery of ${settings.issuer} failed (attempt ${attempt}): ${describeProviderError(error)}`,
        );
        if (attempt >= DISCOVERY_ATTEMPTS) throw new ProviderUnavailable();
        await new Promise((resolve) => setTimeout(resolve, DISCOVERY_RETRY_MS));
      }
    }
  }
}

/**
 * A provider error as it may be logged: its kind and OAuth error code, never its message's
 * details, which can quote a request (a code, a token).
 */
export function describeProviderError(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const coded = error as Error & { code?: unknown; error?: unknown; cause?: unknown };
  const parts = [error.name];
  if (typeof coded.code === 'string') parts.push(coded.code);
  if (typeof coded.error === 'string') parts.push(coded.error);
  const cause = coded.cause as { code?: unknown } | undefined;
  if (cause && typeof cause.code === 'string') parts.push(cause.code);
  return parts.join(' ');
}
