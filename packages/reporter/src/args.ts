import { parseArgs, type ParseArgsConfig } from 'node:util';
import { repoUrlOf } from './ci.js';
import { CONFIG_FILE, readConfigFile, withConfigFile } from './config-file.js';
import type { Env } from './config.js';
import { ReporterError, UsageError } from './errors.js';

const RUN_OPTIONS = {
  project: { type: 'string' },
  'run-name': { type: 'string' },
  'run-id': { type: 'string' },
  'build-id': { type: 'string' },
  'build-name': { type: 'string' },
  'build-number': { type: 'string' },
  commit: { type: 'string' },
  branch: { type: 'string' },
  repo: { type: 'string' },
  'release-id': { type: 'string' },
  'pipeline-id': { type: 'string' },
  gate: { type: 'boolean' },
  details: { type: 'boolean' },
  json: { type: 'boolean' },
  summary: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const SUBMIT_OPTIONS = {
  ...RUN_OPTIONS,
  complete: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  configuration: { type: 'string' },
  'path-root': { type: 'string' },
  reopen: { type: 'boolean' },
  'no-attachments': { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

export interface RunOptions {
  project?: string;
  runName?: string;
  runId?: string;
  buildId?: string;
  buildName?: string;
  buildNumber?: string;
  commit?: string;
  branch?: string;
  repo?: string;
  releaseId?: string;
  pipelineId?: string;
  /**
   * submit: reopen the run when it is completed (a re-run job the CI variables do not tell
   * apart).
   */
  reopen: boolean;
  gate: boolean;
  /**
   * complete --gate: read the gate's details too (comparison, failure groups, flaky tests;
   * three calls or more). submit --gate always reads them.
   */
  details: boolean;
  json: boolean;
  summary?: string;
}

export type Command =
  | { name: 'help'; text: string }
  | ({
      name: 'submit';
      patterns: string[];
      complete: boolean;
      dryRun: boolean;
      /** The configuration (CONTRACT §13) of every result sent that names none itself. */
      configuration?: string;
      /**
       * The folder given as the path root (CONTRACT §14: `--path-root`, else `TM_PATH_ROOT`);
       * when none, the repository's top level or the working directory (`path-root.ts`).
       */
      pathRoot?: string;
      /**
       * Attach the evidence the reports name (screenshots, videos, traces, logs: CONTRACT §15);
       * off with `--no-attachments`, `"noAttachments": true` or `TM_ATTACHMENTS=false`.
       */
      attachments: boolean;
    } & RunOptions)
  | ({ name: 'complete' } & RunOptions);

const COMMON_HELP = `Run (one of):
  --project <id|key>      the project, by id or key (needed with --run-name)
  --run-name <name>       the run: every job of one CI pipeline that names it joins the same run
  --run-id <id>           an existing run instead

Build (optional; one is registered from the pipeline's metadata in CI, and from these flags
anywhere, the flags overriding the metadata):
  --build-id <id>         an existing build
  --build-name <name>     the name of the build registered
  --build-number <n>  --commit <sha>  --branch <name>
  --repo <url>            https://host/org/repo, or git@host:org/repo.git (sent as https)
  --release-id <id>       the release of the run (and of a registered build)
  --pipeline-id <id>      what joins the shards of one pipeline (default: from CI variables)

Output:
  --gate                  read the run's quality gate and exit 1 when it fails: its verdict and
                          rules; submit also prints new failures, fixed tests, flaky tests and
                          failure groups, which complete reads only with --details (3+ calls)
  --details               complete --gate: read and print the gate's details too
  --json                  one JSON object on stdout instead of text
  --summary <file>        write a Markdown summary (also to $GITHUB_STEP_SUMMARY when set)
  --config <file>         options from a JSON file of flags in camelCase and "reports"
                          (default: tm-report.config.json, else package.json's "tmReport");
                          flags win over it
  -h, --help

Environment: TM_URL (the service, e.g. https://tm.example.com/api/v1), TM_API_KEY (never
printed), TM_EXTRA_HEADERS (a JSON object of headers a proxy needs; optional),
TM_CONFIGURATION (submit's --configuration), TM_PATH_ROOT (submit's --path-root),
TM_ATTACHMENTS (false: submit's --no-attachments), HTTPS_PROXY, HTTP_PROXY and NO_PROXY.
Exit codes: 0 done, 1 the gate failed, 2 an error (usage, configuration, a report, the service).`;

export const HELP = {
  main: `tm-report: sends a CI job's test reports to the test management service.

Usage:
  tm-report submit <files or globs...> --project <id|key> --run-name <name> [options]
  tm-report complete --project <id|key> --run-name <name> [options]

Run "tm-report <command> --help" for a command's options.`,
  submit: `Usage: tm-report submit <files or globs...> (--project <id|key> --run-name <name> | --run-id <id>) [options]

Sends test reports to a test run, each as the runner wrote it: JUnit XML, VSTest TRX, NUnit 3,
xUnit.net v2 and Robot Framework output.xml; Playwright JSON, CTRF, Jest/Vitest --json and
Cucumber JSON (the format is told from the document); JSON result files (an array of result
items, or {"results": [...]}); and Allure results: a folder argument, or *-result.json files in
an allure-results folder (a test's attempts grouped by historyId). Globs: *, ?, ** and {a,b},
e.g. 'reports/**/*.xml' (quote them). Parallel jobs (shards) of one pipeline with the same
--run-name land in one run; a retried or repeated upload of the same file is stored once.

  --complete              complete the run after the upload
  --dry-run               check the reports (well-formed, of a format taken; file, line and
                          column of an error) and name each one's format; send nothing
  --configuration <name>  the environment the results ran in (a browser, an OS, a matrix leg:
                          each is a result of its own), for results whose report names none;
                          default: TM_CONFIGURATION
  --path-root <dir>       taken off the front of the file paths in the reports' test names, so
                          they name the same tests wherever the checkout lay; default:
                          TM_PATH_ROOT, else the git repository's top level, else the working
                          directory
  --no-attachments        send no attachments; by default the screenshots, videos, traces and
                          logs the reports name (Playwright's and CTRF's attachments, JUnit
                          [[ATTACHMENT|path]] lines, Cucumber embeddings, Allure attachments)
                          are attached to their results (a missing or oversized file is a
                          warning); default: TM_ATTACHMENTS (false to skip)
  --reopen                reopen the run if it is completed: a job run again in a CI system
                          that does not say so (a re-run GitHub, Azure or Buildkite job, or a
                          GitLab job where CI_JOB_RETRY_COUNT is set, reopens it by itself)

${COMMON_HELP}`,
  complete: `Usage: tm-report complete (--project <id|key> --run-name <name> | --run-id <id>) [options]

Completes the run once all shards have submitted (a run completed already is fine).
Give it the same run and build options as the submit jobs. With a build (from CI or the build
flags) it spends 3 calls (the build's registration replayed, the build's runs, the
completion; one more for a project named by key), --gate 1 more (its rules), --details 3 more
at least.

${COMMON_HELP}`,
};

/** `--repo` as the service takes it: an http(s) address, from an scp-like or ssh one too. */
function repoOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const url = repoUrlOf(value);
  if (!url) {
    throw new ReporterError(
      `--repo ${value} is not a repository address: give https://host/org/repo, git@host:org/repo.git or ssh://git@host/org/repo.git.`,
    );
  }
  return url;
}

/** Configurations are 1–100 characters once trimmed (CONTRACT §13); blank is none. */
const CONFIGURATION_MAX_LENGTH = 100;

function configurationOf(flag: unknown, env: Env): string | undefined {
  const given = typeof flag === 'string' ? flag : env.TM_CONFIGURATION;
  const value = given?.trim();
  if (!value) return undefined;
  if (value.length > CONFIGURATION_MAX_LENGTH) {
    throw new ReporterError(
      `The configuration (${typeof flag === 'string' ? '--configuration' : 'TM_CONFIGURATION'}) is ${value.length} characters long; the service takes at most ${CONFIGURATION_MAX_LENGTH}.`,
    );
  }
  return value;
}

/** Whether to attach evidence: not with `--no-attachments`, else not when TM_ATTACHMENTS says no. */
function attachmentsOf(flag: unknown, env: Env): boolean {
  if (flag === true) return false;
  const value = env.TM_ATTACHMENTS?.trim().toLowerCase();
  if (value === undefined || value === '' || ['true', '1', 'yes', 'on'].includes(value))
    return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new ReporterError(
    `TM_ATTACHMENTS is "${value.slice(0, 20)}": give true or false (false sends no attachments).`,
  );
}

/** `--path-root`, else `TM_PATH_ROOT`; blank is none. */
function pathRootGiven(flag: unknown, env: Env): string | undefined {
  const value = (typeof flag === 'string' ? flag : env.TM_PATH_ROOT)?.trim();
  return value === '' ? undefined : value;
}

function runOptionsOf(
  values: Record<string, string | boolean | undefined>,
  requireRun = true,
): RunOptions {
  const text = (name: string) => {
    const value = values[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const options: RunOptions = {
    project: text('project'),
    runName: text('run-name'),
    runId: text('run-id'),
    buildId: text('build-id'),
    buildName: text('build-name'),
    buildNumber: text('build-number'),
    commit: text('commit'),
    branch: text('branch'),
    repo: repoOf(text('repo')),
    releaseId: text('release-id'),
    pipelineId: text('pipeline-id'),
    reopen: values.reopen === true,
    gate: values.gate === true,
    details: values.details === true,
    json: values.json === true,
    summary: text('summary'),
  };
  if (!requireRun) return options;
  if (!options.runId && !options.runName) {
    throw new ReporterError('Name the run: --run-name <name> (with --project) or --run-id <id>.');
  }
  if (options.runId && options.runName) {
    throw new ReporterError('Give either --run-name or --run-id, not both.');
  }
  if (options.runName && !options.project) {
    throw new ReporterError('--run-name needs --project <id or key>.');
  }
  if (options.buildId && options.buildName) {
    throw new ReporterError('Give either --build-id or --build-name, not both.');
  }
  return options;
}

/**
 * The command a command line asks for (with what `env` and, given `cwd`, a settings file add to
 * it); a usage error is a ReporterError (exit 2).
 */
export function parseCommand(argv: string[], env: Env = {}, cwd?: string): Command {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    return { name: 'help', text: HELP.main };
  }
  if (name !== 'submit' && name !== 'complete') {
    throw new UsageError(`Unknown command "${name}".`, HELP.main);
  }
  const options = name === 'submit' ? SUBMIT_OPTIONS : RUN_OPTIONS;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options,
      allowPositionals: name === 'submit',
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message, HELP[name]);
  }
  if (parsed.values.help) return { name: 'help', text: HELP[name] };
  const file =
    cwd === undefined ? undefined : readConfigFile(cwd, parsed.values.config, SUBMIT_OPTIONS);
  const { values, positionals } = withConfigFile(
    { values: parsed.values, positionals: parsed.positionals },
    file,
    { options, takesReports: name === 'submit' },
    env,
  );
  if (name === 'complete') return { name, ...runOptionsOf(values) };
  if (positionals.length === 0) {
    throw new ReporterError(
      `Name the reports to send: tm-report submit <files or globs...>, or "reports" in ${CONFIG_FILE}.`,
    );
  }
  return {
    name,
    patterns: positionals,
    complete: values.complete === true,
    dryRun: values['dry-run'] === true,
    configuration: configurationOf(values.configuration, env),
    pathRoot: pathRootGiven(values['path-root'], env),
    attachments: attachmentsOf(values['no-attachments'], env),
    ...runOptionsOf(values, values['dry-run'] !== true),
  };
}
