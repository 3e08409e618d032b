import { freePort, spawnService, waitForOutput, type ServiceProcess } from './process.js';

/**
 * The operator token the drills' child processes are given. Defined here rather than taken
 * from `app.ts`, which would load the whole Nest application into the test process.
 */
export const DRILL_ADMIN_TOKEN = 'drill-operator-token-0123456789';

/** Checks `condition` every `everyMs` until it holds; fails after `ms` naming `what`. */
export async function pollUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 20_000,
  everyMs = 20,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * The built service as a child process on a fixed loopback port that a drill can SIGKILL and
 * start again on the same port, as an orchestrator would restart a crashed pod. Every process
 * it starts is signalled by its PID only; `stop()` is safe to call in any state (use it in
 * `finally`/`afterAll`).
 */
export class RestartableService {
  private current: ServiceProcess | null = null;
  /** Every process started so far, oldest first (their output helps explain a failure). */
  readonly processes: ServiceProcess[] = [];
  kills = 0;

  private constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  /**
   * Starts the service with the test run's settings (database, Redis prefix) plus `env`, on a
   * free port that later restarts reuse.
   */
  static async start(env: Record<string, string> = {}): Promise<RestartableService> {
    const service = new RestartableService(await freePort(), env);
    try {
      await service.start();
    } catch (error) {
      // A process that never came up is still a process this helper started.
      await service.stop();
      throw error;
    }
    return service;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.running ? this.current?.child.pid : undefined;
  }

  get running(): boolean {
    const child = this.current?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** Starts a process (after a kill, on the same port) and waits until it listens. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`service on port ${this.port} is already running`);
    const started = spawnService({
      ADMIN_TOKEN: DRILL_ADMIN_TOKEN,
      APP_ROLE: 'api',
      ...this.env,
      PORT: String(this.port),
    });
    this.current = started;
    this.processes.push(started);
    await waitForOutput(started, /Listening on/);
  }

  /** Sends `signal` to the current process by its PID and waits for it to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const current = this.current;
    if (!current || !this.running || current.child.pid === undefined) return;
    try {
      process.kill(current.child.pid, signal);
    } catch (error) {
      // Already gone between the check and the signal: nothing to do.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
    await current.exited;
    if (signal === 'SIGKILL') this.kills++;
  }

  /** SIGKILLs the current process and starts a new one on the same port. */
  async crashAndRestart(): Promise<void> {
    await this.kill('SIGKILL');
    await this.start();
  }

  /** Ends whatever process is still running (SIGKILL: a drill's leftovers need no grace). */
  async stop(): Promise<void> {
    for (const started of this.processes) {
      const { child } = started;
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
      await started.exited;
    }
  }

  /** The output of every process started, for a failure message. */
  output(): string {
    return this.processes
      .map(
        (started, i) => `--- process ${i + 1} (pid ${started.child.pid}) ---\n${started.output()}`,
      )
      .join('\n');
  }
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked by the tests
  body: any;
}

/**
 * One HTTP call to a drill's service over loopback, marked as HTTPS through the trusted
 * loopback proxy. Network errors and the time limit reject (the caller decides whether to
 * retry).
 */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    headers?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { 'X-Forwarded-Proto': 'https', ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: payload,
    signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: keep the text for the failure message.
  }
  return { status: res.status, headers: res.headers, body };
}

/** Like `call`, but fails unless the answer has `status`. */
export async function expectCall(
  expected: number,
  ...args: Parameters<typeof call>
): Promise<JsonResponse> {
  const res = await call(...args);
  if (res.status !== expected)
    throw new Error(
      `${args[1]} ${args[2]}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`,
    );
  return res;
}

/** An organization (internal API) with one key of `scopes`, made through `baseUrl`. */
export async function createDrillTenant(
  baseUrl: string,
  scopes: string[],
  fields: { plan?: string; monthly_call_limit?: number | null; name?: string } = {},
): Promise<{ orgId: string; key: string }> {
  const org = await expectCall(201, baseUrl, 'POST', '/internal/v1/organizations', {
    token: DRILL_ADMIN_TOKEN,
    body: { name: 'Drill org', plan: 'enterprise', ...fields },
  });
  const key = await createDrillKey(baseUrl, org.body.id, scopes);
  return { orgId: org.body.id, key };
}

/** Another key of organization `orgId`. */
export async function createDrillKey(
  baseUrl: string,
  orgId: string,
  scopes: string[],
): Promise<string> {
  const res = await expectCall(
    201,
    baseUrl,
    'POST',
    `/internal/v1/organizations/${orgId}/api-keys`,
    {
      token: DRILL_ADMIN_TOKEN,
      body: { name: 'drill key', scopes },
    },
  );
  return res.body.key;
}
