import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './process.js';

/**
 * A private `redis-server` on a loopback port, for drills that crash Redis. The machine's
 * shared Redis (6379) is used by other test runs at the same time and must never be
 * restarted or flushed; this one belongs to one test. No persistence (`--save ""`,
 * `--appendonly no`), so `restart()` brings back an empty Redis, as after a crash.
 */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  private output = '';

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.launch();
    return redis;
  }

  /** SIGKILL (no chance to save anything) and start again, empty, on the same port. */
  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  /** SIGKILLs the server and waits until it has exited; harmless when already stopped. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  private launch(ms = 10_000): Promise<void> {
    this.output = '';
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        fail(new Error(`redis-server on ${this.port} not ready after ${ms} ms`));
      }, ms);
      const fail = (error: Error) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`${error.message}\n${this.output}`));
      };
      const onData = (chunk: Buffer) => {
        this.output += chunk.toString();
        if (this.output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('error', fail);
      child.once('exit', (code, signal) =>
        fail(new Error(`redis-server exited early (${code ?? signal})`)),
      );
    });
  }
}
