import { loadSettings, SettingsError } from './settings.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadSettings(env);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadSettings', () => {
  it('applies the contract defaults', () => {
    const settings = loadSettings({});
    expect(settings).toMatchObject({
      port: 3000,
      databaseUrl: 'postgres://postgres@localhost:5432/testmgmt',
      migrationsRun: true,
      databasePreparedStatements: true,
      redisUrl: 'redis://localhost:6379',
      appRole: 'all',
      adminToken: null,
      trustProxy: ['loopback', 'linklocal', 'uniquelocal'],
      tlsCertFile: null,
      tlsKeyFile: null,
      tlsSelfSigned: false,
      rateLimitPerMinute: 600,
      rateLimitStore: 'memory',
      webhookAllowedHosts: [],
      webhookRetryBaseMs: 600000,
      webhookTimeoutMs: 10000,
      logLevel: 'info',
    });
    expect(settings.servesHttpApi && settings.runsWorkers).toBe(true);
  });

  it('reads every variable', () => {
    const settings = loadSettings({
      PORT: '8443',
      APP_ROLE: 'worker',
      ADMIN_TOKEN: 'a-long-enough-operator-token',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
      RATE_LIMIT_PER_MINUTE: '5',
      RATE_LIMIT_STORE: 'redis',
      WEBHOOK_ALLOWED_HOSTS: 'Localhost, 127.0.0.1 ,',
      WEBHOOK_RETRY_BASE_MS: '50',
      MIGRATIONS_RUN: 'false',
      TLS_SELF_SIGNED: 'true',
    });
    expect(settings).toMatchObject({
      port: 8443,
      appRole: 'worker',
      adminToken: 'a-long-enough-operator-token',
      trustProxy: ['10.0.0.0/8', '192.168.1.1'],
      rateLimitPerMinute: 5,
      rateLimitStore: 'redis',
      webhookAllowedHosts: ['localhost', '127.0.0.1'],
      webhookRetryBaseMs: 50,
      migrationsRun: false,
      tlsSelfSigned: true,
    });
    expect(settings.servesHttpApi).toBe(false);
    expect(settings.tlsEnabled).toBe(true);
  });

  it.each([
    ['PORT', '0', /PORT must be an integer from 1 to 65535/],
    ['PORT', '3000abc', /PORT must be an integer/],
    ['DATABASE_URL', 'mysql://x/y', /DATABASE_URL must be a URL starting with postgres:\/\//],
    ['REDIS_URL', 'not a url', /REDIS_URL must be a URL/],
    ['APP_ROLE', 'both', /APP_ROLE must be one of api, worker, all/],
    ['ADMIN_TOKEN', 'short', /ADMIN_TOKEN must be at least 16 characters/],
    ['ADMIN_TOKEN', 'replace-with-a-long-random-token', /ADMIN_TOKEN must be a secret of your own/],
    ['ADMIN_TOKEN', 'change-me-local-admin-token', /ADMIN_TOKEN must be a secret of your own/],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '-5', /DATABASE_STATEMENT_TIMEOUT_MS must be an integer/],
    ['TRUST_PROXY', '300.1.1.1', /TRUST_PROXY must be/],
    ['TLS_SELF_SIGNED', 'maybe', /TLS_SELF_SIGNED must be true or false/],
    ['TLS_CERT_FILE', '/nonexistent/cert.pem', /TLS_CERT_FILE must be a readable file/],
    ['RATE_LIMIT_PER_MINUTE', '-1', /RATE_LIMIT_PER_MINUTE must be an integer/],
    ['RATE_LIMIT_STORE', 'disk', /RATE_LIMIT_STORE must be one of memory, redis/],
    ['WEBHOOK_RETRY_BASE_MS', 'soon', /WEBHOOK_RETRY_BASE_MS must be an integer/],
    ['WEBHOOK_TIMEOUT_MS', '0', /WEBHOOK_TIMEOUT_MS must be an integer/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
  ])('rejects %s=%s naming the variable', (name, value, message) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('reports every problem at once', () => {
    expect(problemsOf({ PORT: 'x', LOG_LEVEL: 'y', APP_ROLE: 'z' })).toHaveLength(3);
  });

  it('requires the TLS certificate and key together', () => {
    expect(problemsOf({ TLS_CERT_FILE: 'package.json' })).toEqual([
      'TLS_CERT_FILE and TLS_KEY_FILE must be set together',
    ]);
  });

  describe('OIDC sign-in', () => {
    const oidc = {
      ADMIN_TOKEN: 'a-long-enough-operator-token',
      OIDC_ISSUER: 'https://id.example.com/realms/main',
      OIDC_CLIENT_ID: 'tm-console',
      OIDC_CLIENT_SECRET: 'client-secret-value',
      OIDC_ALLOWED_EMAIL_DOMAINS: 'Example.com, example.org',
      PUBLIC_URL: 'https://tm.example.com/',
    };

    it('is off without OIDC_ISSUER', () => {
      expect(loadSettings({}).oidc).toBeNull();
    });

    it('reads the provider, who may sign in, and the redirect URI from PUBLIC_URL', () => {
      expect(loadSettings({ ...oidc, OIDC_OPERATOR_GROUP: 'tm-operators' }).oidc).toEqual({
        issuer: 'https://id.example.com/realms/main',
        clientId: 'tm-console',
        clientSecret: 'client-secret-value',
        allowedEmailDomains: ['example.com', 'example.org'],
        operatorGroup: 'tm-operators',
        groupsClaim: 'groups',
        scopes: 'openid email profile',
        providerName: 'id.example.com',
        redirectUri: 'https://tm.example.com/internal/v1/session/oidc/callback',
      });
    });

    it('refuses to start when the provider would decide alone who is an operator', () => {
      expect(problemsOf({ ...oidc, OIDC_ALLOWED_EMAIL_DOMAINS: '' })).toEqual([
        'OIDC_ALLOWED_EMAIL_DOMAINS or OIDC_OPERATOR_GROUP (or both) must be set when OIDC_ISSUER is',
      ]);
      expect(
        problemsOf({ ...oidc, OIDC_ALLOWED_EMAIL_DOMAINS: '', OIDC_OPERATOR_GROUP: 'ops' }),
      ).toEqual([]);
    });

    it.each([
      ['OIDC_CLIENT_ID', '', /OIDC_CLIENT_ID must be set/],
      ['OIDC_CLIENT_SECRET', '', /OIDC_CLIENT_SECRET must be set/],
      ['PUBLIC_URL', '', /PUBLIC_URL must be set/],
      ['ADMIN_TOKEN', '', /ADMIN_TOKEN must be set/],
      ['OIDC_ISSUER', 'http://id.example.com', /OIDC_ISSUER must be an https:\/\/ URL/],
      ['OIDC_ISSUER', 'https://id.example.com/?x=1', /OIDC_ISSUER must be an https:\/\/ URL/],
      ['PUBLIC_URL', 'http://tm.example.com', /PUBLIC_URL must be an https:\/\/ URL/],
    ])('refuses %s=%s', (name, value, message) => {
      const problems = problemsOf({ ...oidc, [name]: value });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(message);
    });

    it('allows plain http for a provider and console on this machine', () => {
      const settings = loadSettings({
        ...oidc,
        OIDC_ISSUER: 'http://127.0.0.1:9000',
        PUBLIC_URL: 'http://localhost:3000',
      });
      expect(settings.oidc?.redirectUri).toBe(
        'http://localhost:3000/internal/v1/session/oidc/callback',
      );
    });
  });
});
