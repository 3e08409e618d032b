import type { Env } from './config.js';
import { ReporterError } from './errors.js';
import { oneLine } from './output.js';

/**
 * The GitHub Action's inputs (action.yml) as tm-report's command line. A JavaScript action's
 * `main` runs with no arguments: GitHub passes each input as `INPUT_<NAME>` (upper case, the
 * hyphens kept), an input not given as its default or an empty string.
 */

type Input =
  | { kind: 'flag'; flag: string }
  | { kind: 'switch'; flag: string }
  | { kind: 'env'; variable: string }
  | { kind: 'command' }
  | { kind: 'reports' };

/** Every input of action.yml and what it becomes (test/reporter/action.e2e-spec.ts checks both agree). */
export const ACTION_INPUTS: Record<string, Input> = {
  command: { kind: 'command' },
  reports: { kind: 'reports' },
  project: { kind: 'flag', flag: '--project' },
  'run-name': { kind: 'flag', flag: '--run-name' },
  'run-id': { kind: 'flag', flag: '--run-id' },
  configuration: { kind: 'flag', flag: '--configuration' },
  'build-name': { kind: 'flag', flag: '--build-name' },
  'release-id': { kind: 'flag', flag: '--release-id' },
  'path-root': { kind: 'flag', flag: '--path-root' },
  summary: { kind: 'flag', flag: '--summary' },
  config: { kind: 'flag', flag: '--config' },
  gate: { kind: 'switch', flag: '--gate' },
  complete: { kind: 'switch', flag: '--complete' },
  attachments: { kind: 'env', variable: 'TM_ATTACHMENTS' },
  url: { kind: 'env', variable: 'TM_URL' },
  'api-key': { kind: 'env', variable: 'TM_API_KEY' },
};

const COMMANDS = new Set(['submit', 'complete']);

function inputOf(env: Env, name: string): string {
  return (env[`INPUT_${name.toUpperCase()}`] ?? '').trim();
}

function switchOf(env: Env, name: string): boolean {
  const value = inputOf(env, name).toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new ReporterError(`The input ${name} must be true or false, not "${oneLine(value, 40)}".`);
}

/**
 * The command line and environment the inputs in `env` ask for: `url` and `api-key` become
 * TM_URL and TM_API_KEY (over the job's own), `reports` one glob per line.
 */
export function commandLineOf(env: Env): { argv: string[]; env: Env } {
  const command = inputOf(env, 'command') || 'submit';
  if (!COMMANDS.has(command))
    throw new ReporterError(
      `The input command must be submit or complete, not "${oneLine(command, 40)}".`,
    );
  const argv = [command];
  const runEnv: Env = { ...env };
  for (const [name, input] of Object.entries(ACTION_INPUTS)) {
    const value = inputOf(env, name);
    if (input.kind === 'flag' && value) argv.push(input.flag, value);
    else if (input.kind === 'switch' && switchOf(env, name)) argv.push(input.flag);
    else if (input.kind === 'env' && value) runEnv[input.variable] = value;
    else if (input.kind === 'reports' && value) {
      if (command !== 'submit')
        throw new ReporterError('The input reports is for the submit command only.');
      argv.push(
        ...value
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean),
      );
    }
  }
  return { argv, env: runEnv };
}
