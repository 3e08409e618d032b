import supertest from 'supertest';
import { freePort, spawnService, type ServiceProcess } from './process.js';

export interface RunningService extends ServiceProcess {
  role: string;
  port: number;
  /** supertest agent for the process's plain-HTTP port on loopback (a trusted proxy). */
  http: ReturnType<typeof supertest>;
}

/**
 * The service processes (`dist/main.js`) one drill starts, each on a port of its own with the
 * same base settings. It remembers every process so `stopAll()` (in afterAll or a finally)
 * ends exactly the ones it started, by their PID, whatever state the drill left them in.
 */
export class ServiceFleet {
  private readonly started: RunningService[] = [];

  constructor(private readonly base: Record<string, string>) {}

  /** Starts a process with `role` (APP_ROLE) and waits until it listens. */
  async start(role: string, env: Record<string, string> = {}): Promise<RunningService> {
    const port = await freePort();
    const process = spawnService({ ...this.base, ...env, APP_ROLE: role, PORT: String(port) });
    const service: RunningService = {
      ...process,
      role,
      port,
      http: supertest(`http://127.0.0.1:${port}`),
    };
    this.started.push(service);
    await this.healthy(service, 30_000);
    return service;
  }

  /** Polls `/healthz` (answered from the moment the process listens, whatever LOG_LEVEL). */
  private async healthy(service: RunningService, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (service.child.exitCode !== null)
        throw new Error(`${service.role} exited early:\n${service.output()}`);
      const status = await service.http
        .get('/healthz')
        .timeout(1_000)
        .then((res) => res.status)
        .catch(() => null);
      if (status === 200) return;
      if (Date.now() > deadline)
        throw new Error(`${service.role} not healthy after ${ms} ms:\n${service.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGKILL: the process gets no chance to finish or release anything, as in a crash. */
  async kill(service: RunningService): Promise<void> {
    if (service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGKILL');
    }
    await service.exited;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.started.map((service) => this.kill(service)));
  }
}
