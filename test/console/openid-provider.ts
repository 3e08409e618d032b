import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import Provider, { type Configuration, type JWK } from 'oidc-provider';

/** Someone the test provider knows: the claims it vouches for. */
export interface TestAccount {
  email: string;
  email_verified: boolean;
  groups: string[];
}

export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

export const TEST_CLIENT_ID = 'tm-console';
export const TEST_CLIENT_SECRET = 'test-provider-client-secret-4f1c9a';

/**
 * A real OpenID provider (`oidc-provider`) on a loopback port, with the service registered as a
 * confidential client and `accounts` to sign in as. Its login and consent pages are the
 * minimal ones below (an account name, then "Allow"), plain HTML with labelled controls.
 */
export async function startTestProvider(
  port: number,
  redirectUri: string,
  accounts: Record<string, TestAccount>,
): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const configuration: Configuration = {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: TEST_CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'] },
    scopes: ['openid', 'email', 'groups'],
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Its own signing key and lifetimes, so the provider does not warn about its defaults.
    jwks: { keys: [signingKey()] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    findAccount: (_ctx, id) => {
      const account = accounts[id];
      if (account === undefined) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...account }) };
    },
  };
  const provider = withoutWarnings(() => new Provider(issuer, configuration));
  const oidcHandler = provider.callback();
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(provider, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    oidcHandler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { issuer, close: () => closeServer(server) };
}

/** Its in-memory store is what a test wants; the warning that says so is not. */
function withoutWarnings<T>(make: () => T): T {
  /* eslint-disable no-console -- oidc-provider warns on the console, and only there */
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return make();
  } finally {
    console.warn = warn;
  }
  /* eslint-enable no-console */
}

function signingKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    ...(privateKey.export({ format: 'jwk' }) as JWK),
    kid: 'test-key',
    use: 'sig',
    alg: 'RS256',
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;

/** The provider's own pages: sign in as an account, then allow the console what it asked. */
async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  const action = `/interaction/${details.uid}`;
  if (req.method === 'GET') {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(
      details.prompt.name === 'login'
        ? page(
            'Test provider sign-in',
            `<form method="post" action="${action}"><label for="account">Account</label>
             <input id="account" name="account" required><button type="submit">Sign in</button></form>`,
          )
        : page(
            'Allow the console?',
            `<form method="post" action="${action}"><button type="submit">Allow</button></form>`,
          ),
    );
    return;
  }
  if (details.prompt.name === 'login') {
    const form = new URLSearchParams(await bodyOf(req));
    const account = form.get('account') ?? '';
    await provider.interactionFinished(req, res, { login: { accountId: account } });
    return;
  }
  const grant = new provider.Grant({
    accountId: details.session?.accountId,
    clientId: details.params.client_id as string,
  });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
}
