import { existsSync } from 'node:fs';
import proxyAddr from 'proxy-addr';

export const APP_ROLES = ['api', 'worker', 'all'] as const;
export type AppRole = (typeof APP_ROLES)[number];
export const RATE_LIMIT_STORES = ['memory', 'redis'] as const;
export type RateLimitStore = (typeof RATE_LIMIT_STORES)[number];
export const ATTACHMENT_STORAGES = ['filesystem', 's3'] as const;
export type AttachmentStorage = (typeof ATTACHMENT_STORAGES)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting of the service (CONTRACT §11), typed and validated once at start-up.
 * Injected by its class: `constructor(private readonly settings: Settings)`.
 */
export class Settings {
  readonly port!: number;
  readonly databaseUrl!: string;
  /** Prepare the per-request statements once per connection (off behind a pooler that cannot keep them). */
  readonly databasePreparedStatements!: boolean;
  readonly migrationsRun!: boolean;
  /** How long a request waits for a database connection before it answers 503. */
  readonly databaseConnectTimeoutMs!: number;
  /** Longest a statement may run (PostgreSQL's statement_timeout; 0 = not sent); past it the request answers 503. */
  readonly databaseStatementTimeoutMs!: number;
  readonly redisUrl!: string;
  /** Prefix of every Redis key and Bull queue, so several deployments (or test runs) can share one Redis. */
  readonly redisPrefix!: string;
  readonly appRole!: AppRole;
  readonly adminToken!: string | null;
  /** Express's `trust proxy` value: true/false, a hop count, or addresses and subnets. */
  readonly trustProxy!: boolean | number | string[];
  readonly tlsCertFile!: string | null;
  readonly tlsKeyFile!: string | null;
  readonly tlsSelfSigned!: boolean;
  /** Connections one process holds open at once; past it a new one is closed at once. */
  readonly maxConnections!: number;
  /**
   * Connections one client address (an IPv6 address by its /64) may hold open at once; a peer
   * that `trustProxy` trusts (an ingress, carrying everyone's requests) is not capped by it.
   */
  readonly maxConnectionsPerAddress!: number;
  readonly rateLimitPerMinute!: number;
  readonly rateLimitStore!: RateLimitStore;
  readonly webhookAllowedHosts!: string[];
  readonly webhookRetryBaseMs!: number;
  readonly webhookTimeoutMs!: number;
  /** Finished deliveries and relayed events older than this are deleted. */
  readonly webhookLogRetentionDays!: number;
  /** How often the sweeper re-enqueues overdue deliveries and relays missed events. */
  readonly webhookSweepIntervalMs!: number;
  /** How often the worker deletes runs past their project's retention. */
  readonly retentionSweepIntervalMs!: number;
  /** How often a live stream (server-sent events) sends a keep-alive and checks its session still holds. */
  readonly liveHeartbeatMs!: number;
  readonly logLevel!: LogLevel;
  readonly shutdownTimeoutMs!: number;
  /** What the request bodies a process holds at once may cost to parse and store, in bytes. */
  readonly bodyMemoryBudgetBytes!: number;
  /** How long a request waits for its body's share of that budget before it answers 503. */
  readonly bodyBudgetWaitMs!: number;
  /** The console's sign-in with an OpenID Connect provider; null = operator token only. */
  readonly oidc!: OidcSettings | null;
  /** Where attachments' bytes are kept and for how long (CONTRACT §15). */
  readonly attachments!: AttachmentSettings;

  get servesHttpApi(): boolean {
    return this.appRole !== 'worker';
  }

  get runsWorkers(): boolean {
    return this.appRole !== 'api';
  }

  get tlsEnabled(): boolean {
    return this.tlsSelfSigned || this.tlsCertFile !== null;
  }
}

/**
 * Sign-in through an OpenID Connect provider (authorization code + PKCE). Who may sign in is
 * decided here, never by the provider alone: a verified email in one of `allowedEmailDomains`
 * and/or membership of `operatorGroup` (both must hold when both are set).
 */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Lower-case domains, matched exactly against the part after the email's last `@`. */
  allowedEmailDomains: string[];
  operatorGroup: string | null;
  groupsClaim: string;
  scopes: string;
  /** What the sign-in button names: "Sign in with <providerName>". */
  providerName: string;
  /** `PUBLIC_URL` + the callback's path, registered with the provider. */
  redirectUri: string;
}

/**
 * Attachments (CONTRACT §15): their content on a filesystem folder (`dir`, every replica's) or
 * in an S3-compatible bucket (`s3`; credentials from the environment as AWS's SDK reads them).
 */
export interface AttachmentSettings {
  storage: AttachmentStorage;
  dir: string;
  s3: { bucket: string; region: string; endpoint: string | null; forcePathStyle: boolean } | null;
  /** Largest attachment, in bytes. */
  maxBytes: number;
  retentionDays: number;
  /** The service's own address in upload and download links; null = the request's. */
  publicUrl: string | null;
}

/** The path of the provider's redirect back to the service (the redirect URI's path). */
export const OIDC_CALLBACK_PATH = '/internal/v1/session/oidc/callback';

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads and validates the settings; every problem is collected so one start-up shows them all. */
export function loadSettings(env: Env): Settings {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const values = {
    port: read.integer('PORT', 3000, 1, 65535),
    databaseUrl: read.url('DATABASE_URL', 'postgres://postgres@localhost:5432/testmgmt', [
      'postgres:',
      'postgresql:',
    ]),
    databasePreparedStatements: read.boolean('DATABASE_PREPARED_STATEMENTS', true),
    migrationsRun: read.boolean('MIGRATIONS_RUN', true),
    databaseConnectTimeoutMs: read.integer('DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
    // 0: not sent to PostgreSQL (a pooler that refuses startup options, e.g. PgBouncer: set
    // it on the database role there instead).
    databaseStatementTimeoutMs: read.integer('DATABASE_STATEMENT_TIMEOUT_MS', 60_000, 0, 3_600_000),
    redisUrl: read.url('REDIS_URL', 'redis://localhost:6379', ['redis:', 'rediss:']),
    redisPrefix: read.pattern(
      'REDIS_PREFIX',
      'tm',
      /^[A-Za-z0-9_-]{1,64}$/,
      'letters, digits, _ or -',
    ),
    appRole: read.oneOf('APP_ROLE', 'all', APP_ROLES),
    adminToken: read.optionalSecret('ADMIN_TOKEN', 16),
    trustProxy: read.trustProxy('TRUST_PROXY', 'loopback, linklocal, uniquelocal'),
    tlsCertFile: read.optionalFile('TLS_CERT_FILE'),
    tlsKeyFile: read.optionalFile('TLS_KEY_FILE'),
    tlsSelfSigned: read.boolean('TLS_SELF_SIGNED', false),
    maxConnections: read.integer('MAX_CONNECTIONS', 2_000, 1, 1_000_000),
    maxConnectionsPerAddress: read.integer('MAX_CONNECTIONS_PER_ADDRESS', 256, 1, 1_000_000),
    rateLimitPerMinute: read.integer('RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    rateLimitStore: read.oneOf('RATE_LIMIT_STORE', 'memory', RATE_LIMIT_STORES),
    webhookAllowedHosts: read.list('WEBHOOK_ALLOWED_HOSTS'),
    webhookRetryBaseMs: read.integer('WEBHOOK_RETRY_BASE_MS', 600_000, 1, 86_400_000),
    webhookTimeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 1, 120_000),
    webhookLogRetentionDays: read.integer('WEBHOOK_LOG_RETENTION_DAYS', 30, 1, 3650),
    webhookSweepIntervalMs: read.integer('WEBHOOK_SWEEP_INTERVAL_MS', 5_000, 100, 600_000),
    retentionSweepIntervalMs: read.integer(
      'RETENTION_SWEEP_INTERVAL_MS',
      60 * 60 * 1000,
      1_000,
      24 * 60 * 60 * 1000,
    ),
    liveHeartbeatMs: read.integer('LIVE_HEARTBEAT_MS', 15_000, 100, 60_000),
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 25_000, 1, 600_000),
    bodyMemoryBudgetBytes: read.integer('BODY_MEMORY_BUDGET_MB', 192, 1, 65_536) * 1024 * 1024,
    bodyBudgetWaitMs: read.integer('BODY_BUDGET_WAIT_MS', 60_000, 1, 600_000),
  };
  const oidc = readOidc(read, problems, values.adminToken !== null);
  const attachments = readAttachments(read, problems);

  if ((values.tlsCertFile === null) !== (values.tlsKeyFile === null)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  if (values.tlsSelfSigned && values.tlsCertFile !== null) {
    problems.push('TLS_SELF_SIGNED cannot be combined with TLS_CERT_FILE/TLS_KEY_FILE');
  }
  if (problems.length > 0) throw new SettingsError(problems);
  return Object.assign(new Settings(), { ...values, oidc, attachments });
}

/** The OIDC settings when `OIDC_ISSUER` is set; each missing or unsafe piece is a problem. */
function readOidc(
  read: EnvReader,
  problems: string[],
  hasAdminToken: boolean,
): OidcSettings | null {
  const issuer = read.webUrl('OIDC_ISSUER', false);
  const publicUrl = read.webUrl('PUBLIC_URL', true);
  if (issuer === undefined) return null;
  const required = (name: string): string => {
    const value = read.optionalString(name);
    if (value === null) problems.push(`${name} must be set when OIDC_ISSUER is`);
    return value ?? '';
  };
  const clientId = required('OIDC_CLIENT_ID');
  const clientSecret = required('OIDC_CLIENT_SECRET');
  const allowedEmailDomains = read.list('OIDC_ALLOWED_EMAIL_DOMAINS');
  const operatorGroup = read.optionalString('OIDC_OPERATOR_GROUP');
  if (allowedEmailDomains.length === 0 && operatorGroup === null) {
    // A provider that lets anyone sign in must not make them all operators.
    problems.push(
      'OIDC_ALLOWED_EMAIL_DOMAINS or OIDC_OPERATOR_GROUP (or both) must be set when OIDC_ISSUER is',
    );
  }
  if (read.optionalString('PUBLIC_URL') === null) {
    problems.push('PUBLIC_URL must be set when OIDC_ISSUER is (the redirect URI is built from it)');
  }
  // Sessions are keyed with the operator token, and the internal API exists only with it.
  if (!hasAdminToken) problems.push('ADMIN_TOKEN must be set when OIDC_ISSUER is');
  return {
    issuer,
    clientId,
    clientSecret,
    allowedEmailDomains,
    operatorGroup,
    groupsClaim: read.string('OIDC_GROUPS_CLAIM', 'groups'),
    scopes: read.string('OIDC_SCOPES', 'openid email profile'),
    providerName: read.string('OIDC_PROVIDER_NAME', new URL(issuer).hostname),
    redirectUri: `${publicUrl ?? ''}${OIDC_CALLBACK_PATH}`,
  };
}

function readAttachments(read: EnvReader, problems: string[]): AttachmentSettings {
  const storage = read.oneOf('ATTACHMENT_STORAGE', 'filesystem', ATTACHMENT_STORAGES);
  const bucket = read.optionalString('S3_BUCKET');
  if (storage === 's3' && bucket === null) {
    problems.push('S3_BUCKET must be set when ATTACHMENT_STORAGE is s3');
  }
  return {
    storage,
    dir: read.string('ATTACHMENT_DIR', 'data/attachments'),
    s3:
      storage === 's3'
        ? {
            bucket: bucket ?? '',
            region: read.string('S3_REGION', 'us-east-1'),
            endpoint: read.optionalString('S3_ENDPOINT'),
            forcePathStyle: read.boolean('S3_FORCE_PATH_STYLE', false),
          }
        : null,
    maxBytes: read.integer('ATTACHMENT_MAX_BYTES', 256 * 1024 * 1024, 1, 5 * 1024 ** 4),
    retentionDays: read.integer('ATTACHMENT_RETENTION_DAYS', 90, 1, 36_500),
    // Checked as a URL by `readOidc`, which reads it whether or not OIDC is on.
    publicUrl: read.optionalString('PUBLIC_URL')?.replace(/\/+$/, '') ?? null,
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Plain http is only for a provider or console on this machine (development, tests). */
export function isLoopbackUrl(url: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(url).hostname);
}

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  private fail<T>(name: string, expected: string, fallback: T): T {
    this.problems.push(`${name} must be ${expected}`);
    return fallback;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      return this.fail(name, `an integer from ${min} to ${max} (got "${value}")`, fallback);
    }
    return parsed;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', '1', 'yes'].includes(value)) return true;
    if (['false', '0', 'no'].includes(value)) return false;
    return this.fail(name, `true or false (got "${value}")`, fallback);
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    return this.fail(name, `one of ${allowed.join(', ')} (got "${value}")`, fallback);
  }

  url(name: string, fallback: string, protocols: string[]): string {
    const value = this.raw(name) ?? fallback;
    try {
      if (protocols.includes(new URL(value).protocol)) return value;
    } catch {
      // reported below
    }
    return this.fail(
      name,
      `a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
      fallback,
    );
  }

  pattern(name: string, fallback: string, pattern: RegExp, description: string): string {
    const value = this.raw(name) ?? fallback;
    return pattern.test(value) ? value : this.fail(name, description, fallback);
  }

  optionalString(name: string): string | null {
    return this.raw(name) ?? null;
  }

  /**
   * An https URL (http only on localhost) without query, fragment or credentials; undefined
   * when unset. An issuer is kept exactly as given (its metadata must name it so).
   */
  webUrl(name: string, trimTrailingSlash: boolean): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value);
      const secure =
        url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(value));
      if (
        secure &&
        url.search === '' &&
        url.hash === '' &&
        url.username === '' &&
        url.password === ''
      ) {
        return trimTrailingSlash ? value.replace(/\/+$/, '') : value;
      }
    } catch {
      // reported below
    }
    return this.fail(
      name,
      `an https:// URL without query or fragment (http:// only for localhost) (got "${value}")`,
      undefined,
    );
  }

  optionalSecret(name: string, minLength: number): string | null {
    const value = this.raw(name);
    if (value === undefined) return null;
    if (value.length < minLength) {
      return this.fail(name, `at least ${minLength} characters long`, null);
    }
    // A token anyone can read in this repository's examples is no secret.
    if (/change-?me|replace-with|example/i.test(value)) {
      return this.fail(name, 'a secret of your own, not an example value', null);
    }
    return value;
  }

  optionalFile(name: string): string | null {
    const value = this.raw(name);
    if (value === undefined) return null;
    return existsSync(value)
      ? value
      : this.fail(name, `a readable file (not found: ${value})`, null);
  }

  trustProxy(name: string, fallback: string): boolean | number | string[] {
    const value = this.raw(name) ?? fallback;
    if (value === 'true' || value === 'false') return value === 'true';
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    try {
      proxyAddr.compile(entries);
      return entries;
    } catch {
      return this.fail(
        name,
        `true, false, a hop count, or addresses/subnets/loopback/linklocal/uniquelocal (got "${value}")`,
        false,
      );
    }
  }

  list(name: string): string[] {
    const value = this.raw(name);
    if (value === undefined) return [];
    return value
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item !== '');
  }
}
