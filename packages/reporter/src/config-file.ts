import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import type { Env } from './config.js';
import { ReporterError } from './errors.js';
import { oneLine } from './output.js';

/**
 * The options a repository keeps in a file, so a pipeline's step is `npx tm-report submit`:
 * `--config <file>`, else `tm-report.config.json` in the working directory, else the `tmReport`
 * object of its `package.json`. Each key is a flag's name in camelCase (`runName` for
 * `--run-name`) with the flag's type, and `reports` is the files or globs (a string or a list).
 * Flags win over the file, and so does TM_CONFIGURATION over its `configuration`.
 */

export const CONFIG_FILE = 'tm-report.config.json';

/** Flags that describe one call, not a repository's setup: not taken from a file. */
const PER_CALL = new Set(['help', 'json', 'dry-run', 'config']);

/** A file's settings, by flag name, and its report globs. */
export interface ConfigFile {
  /** How messages name it: the file's path, or `package.json "tmReport"`. */
  source: string;
  values: Record<string, string | boolean>;
  reports?: string[];
}

/** Beyond it a file is not a handful of settings; it is refused unread. */
const MAX_FILE_BYTES = 1024 * 1024;

const camelCase = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function readJson(file: string, shown: string): unknown {
  const size = statSync(file).size;
  if (size > MAX_FILE_BYTES)
    throw new ReporterError(`${shown} is ${size} bytes; a settings file is at most 1 MiB.`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ReporterError(`${shown} is not valid JSON: ${oneLine((error as Error).message)}`);
  }
}

/** The settings object to read and how messages name it, if there is one. */
function locate(
  cwd: string,
  given: string | undefined,
): { source: string; settings: unknown } | undefined {
  if (given !== undefined) {
    const file = path.resolve(cwd, given);
    if (!existsSync(file)) throw new ReporterError(`--config ${given}: no such file.`);
    return { source: given, settings: readJson(file, given) };
  }
  if (existsSync(path.join(cwd, CONFIG_FILE)))
    return { source: CONFIG_FILE, settings: readJson(path.join(cwd, CONFIG_FILE), CONFIG_FILE) };
  const manifest = path.join(cwd, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const pkg = readJson(manifest, 'package.json');
  if (typeof pkg !== 'object' || pkg === null || !Object.hasOwn(pkg, 'tmReport')) return undefined;
  return { source: 'package.json "tmReport"', settings: (pkg as { tmReport: unknown }).tmReport };
}

function reportsOf(source: string, value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((item) => typeof item === 'string' && item.trim() !== '')
  ) {
    throw new ReporterError(
      `${source}: "reports" must be a file or glob, or a non-empty list of them (strings).`,
    );
  }
  return list as string[];
}

/**
 * Reads the settings file for a command whose flags are `options` (submit's, the most of any
 * command): undefined when there is none. Unknown keys and values of the wrong type are errors
 * naming the file and the key.
 */
export function readConfigFile(
  cwd: string,
  given: string | undefined,
  options: ParseArgsConfig['options'] & object,
): ConfigFile | undefined {
  const found = locate(cwd, given);
  if (!found) return undefined;
  const { source, settings } = found;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
    throw new ReporterError(`${source} must be a JSON object of settings.`);
  const flags = new Map(
    Object.entries(options)
      .filter(([flag]) => !PER_CALL.has(flag))
      .map(([flag, option]) => [camelCase(flag), { flag, type: option.type }]),
  );
  const file: ConfigFile = { source, values: {} };
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'reports') {
      file.reports = reportsOf(source, value);
      continue;
    }
    const option = flags.get(key);
    if (!option) {
      throw new ReporterError(
        `${source}: unknown key "${oneLine(key, 60)}"; the keys are reports, ${[...flags.keys()].join(', ')}.`,
      );
    }
    if (typeof value !== option.type) {
      throw new ReporterError(
        `${source}: "${key}" must be ${option.type === 'boolean' ? 'true or false' : 'a string'}, not ${value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`}.`,
      );
    }
    file.values[option.flag] = value as string | boolean;
  }
  return file;
}

/**
 * The command line's values and positionals with the file's beneath them: a flag given wins,
 * `TM_CONFIGURATION` wins over the file's `configuration`, and the file's reports are used only
 * when the command line names none. Only the flags of the command run (`command.options`) are
 * taken: one file serves `submit` and `complete`.
 */
export function withConfigFile(
  parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] },
  file: ConfigFile | undefined,
  command: { options: object; takesReports: boolean },
  env: Env,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  if (!file) return parsed;
  const values = { ...parsed.values };
  for (const [flag, value] of Object.entries(file.values)) {
    if (!Object.hasOwn(command.options, flag) || values[flag] !== undefined) continue;
    if (flag === 'configuration' && env.TM_CONFIGURATION?.trim()) continue;
    values[flag] = value;
  }
  const positionals =
    parsed.positionals.length === 0 && command.takesReports && file.reports
      ? file.reports
      : parsed.positionals;
  return { values, positionals };
}
