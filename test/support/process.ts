import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { resolve as resolvePath } from 'node:path';

export interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Runs the built service (`dist/main.js`) as its own process with the given settings, by
 * default from a directory without a `.env` file, so only the given settings apply.
 */
export function spawnService(env: Record<string, string>, cwd = tmpdir()): ServiceProcess {
  let output = '';
  const child = spawn(process.execPath, [resolvePath('dist/main.js')], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * Waits until the process's output matches, or fails after `ms`. A process starting on a
 * loaded 2-core CI machine has taken more than 20 s to say a word (`Listening on`, twice this
 * session); waiting longer costs only a failing test's time.
 */
export async function waitForOutput(
  service: ServiceProcess,
  pattern: RegExp,
  ms = 60_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pattern.test(service.output())) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${pattern}; output:\n${service.output()}`);
    if (service.child.exitCode !== null)
      throw new Error(`process exited early:\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
