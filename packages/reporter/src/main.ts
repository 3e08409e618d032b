import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCommand, type Command, type RunOptions } from './args.js';
import { contentsOf, sendAttachments, type AttachmentsSent } from './attachments.js';
import type { Evidence } from './evidence.js';
import { detectCi, type CiMetadata } from './ci.js';
import { serviceClient, type ServiceClient } from './client.js';
import { connectionFrom, type Env } from './config.js';
import { ReporterError, UsageError } from './errors.js';
import { labelOf } from './formats.js';
import { readGate, gateLines, storedSummaryLines, summaryLines, type GateReport } from './gate.js';
import type { RetryOptions } from './http.js';
import { document, printer, secretsOf, type Printer } from './output.js';
import { progressLine } from './progress.js';
import { pathRootOf } from './path-root.js';
import { evidenceOf } from './report-evidence.js';
import { readReports } from './reports.js';
import { completeRun, findRun, resolveRun, runById, runNameOf, type TestRun } from './run.js';
import { transportThrough } from './transport.js';
import {
  IncompleteUploadError,
  uploadAll,
  uploadOne,
  uploadsOf,
  type Upload,
  type Uploaded,
} from './upload.js';

/** What the reporter touches outside itself, so tests can run it in-process. */
export interface Io {
  env: Env;
  cwd: string;
  /** Raw sinks: main prints only through output.ts's printers over them. */
  out(text: string): void;
  err(text: string): void;
  /** A progress bar redrawn in place (a terminal), instead of a line per report (CI logs). */
  progressBar?: boolean;
  retry?: RetryOptions;
}

/** Files uploaded at once by one job. */
const UPLOAD_CONCURRENCY = 4;

export const EXIT = { ok: 0, gateFailed: 1, error: 2 } as const;

/** What a command gets of Io: no raw sink, so that whatever it prints goes through Output. */
type Context = Omit<Io, 'out' | 'err'>;

/** Where a command prints: stdout, stderr, `tm-report: …` lines on stderr, and files it writes. */
interface Output {
  out: Printer;
  err: Printer;
  log(text: string): void;
  file(lines: string[]): string;
}

interface Outcome {
  runId: string;
  /** The run as the service last answered with it, when a call did (a completion, a lookup). */
  run?: TestRun;
  /** The run's name when it was not read. */
  runName?: string;
  uploaded?: Uploaded[];
  /** What was done with the evidence the reports name (none with --no-attachments). */
  attachments?: AttachmentsSent;
  completed?: boolean;
  gate?: GateReport;
}

function clientFor(io: Context, log: (text: string) => void): ServiceClient {
  return serviceClient(connectionFrom(io.env), {
    ...io.retry,
    onRetry: (what, reason, waitMs, attempt) => {
      const wait = waitMs < 1000 ? `${waitMs} ms` : `${(waitMs / 1000).toFixed(1)} s`;
      log(`${what}: ${reason}; retry ${attempt} in ${wait}`);
      io.retry?.onRetry?.(what, reason, waitMs, attempt);
    },
  });
}

/**
 * Prints the outcome. The run is read only when something needs what the jobs made of it: the
 * JSON answer (the run object), or the gate. A submit's text says what this job stored, from
 * the service's answers to its reports: a call spent on the run's counts would count against
 * the monthly quota once per shard, and `complete` prints them.
 */
async function finish(
  client: ServiceClient,
  options: RunOptions & { details?: boolean },
  outcome: Outcome,
  ci: CiMetadata | undefined,
  io: Context,
  print: Output,
): Promise<number> {
  const read = options.json || options.gate;
  const run = outcome.run ?? (read ? await runById(client, outcome.runId) : undefined);
  const gate =
    options.gate && run ? await readGate(client, run, options.details ?? true) : undefined;
  const uploaded = outcome.uploaded ?? [];
  const stored = {
    name: outcome.runName,
    runId: outcome.runId,
    results: uploaded.reduce((sum, u) => sum + u.accepted, 0),
    reports: uploaded.length,
  };
  const markdown = print.file(
    run ? summaryLines(run, gate, ci?.jobUrl) : storedSummaryLines(stored, ci?.jobUrl),
  );
  if (io.env.GITHUB_STEP_SUMMARY) appendFileSync(io.env.GITHUB_STEP_SUMMARY, markdown);
  if (options.summary) writeFileSync(path.resolve(io.cwd, options.summary), markdown);
  if (options.json) {
    print.out.line(
      JSON.stringify({
        ok: true,
        run,
        uploaded: outcome.uploaded,
        attachments: outcome.attachments,
        completed: outcome.completed,
        gate,
        gate_passed: gate?.gate.passed,
      }),
    );
  } else if (run) {
    const c = run.counts;
    print.out.line(
      `Run "${run.name}" (${run.id}), ${run.status}: ${c.total} results, ${c.passed} passed, ${c.failed} failed, ${c.blocked} blocked, ${c.skipped} skipped, ${c.flaky} flaky`,
    );
    if (gate) print.out.line(...gateLines(gate));
  } else {
    const name = stored.name === undefined ? '' : `"${stored.name}" `;
    print.out.line(
      `Run ${name}(${stored.runId}): ${stored.results} results of ${stored.reports} reports stored by this job (the run's counts: tm-report complete)`,
    );
  }
  return gate && !gate.gate.passed ? EXIT.gateFailed : EXIT.ok;
}

async function submit(
  command: Extract<Command, { name: 'submit' }>,
  io: Context,
  print: Output,
): Promise<number> {
  const { log } = print;
  const pathRoot = pathRootOf(command.pathRoot, io.cwd);
  const reports = readReports(command.patterns, io.cwd, pathRoot);
  if (command.dryRun) {
    for (const r of reports) log(`${r.file}: ${labelOf(r.kind)}, ${r.cases} results: ok`);
    const total = reports.reduce((sum, r) => sum + r.cases, 0);
    if (command.json)
      print.out.line(
        JSON.stringify({
          ok: true,
          dry_run: true,
          files: reports.map((r) => ({ file: r.file, kind: r.kind, results: r.cases })),
        }),
      );
    else
      print.out.line(`${reports.length} reports, ${total} results: valid (dry run, nothing sent)`);
    return EXIT.ok;
  }
  const client = clientFor(io, log);
  const ci = detectCi(io.env);
  const ref = await resolveRun(client, command, ci, log);
  const { configuration } = command;
  const runName = runNameOf(ref);
  let runId = 'runId' in ref ? ref.runId : undefined;
  const named =
    runName === undefined ? `${runId}` : `"${runName}"${runId === undefined ? '' : ` (${runId})`}`;
  log(`run ${named}${configuration ? `, configuration "${configuration}"` : ''}`);
  // A job run again sends a new execution, under keys of its own (upload.ts).
  const rerun = ci?.rerun ?? (command.reopen ? '--reopen' : undefined);
  const target = {
    run: ref,
    configuration,
    rerun,
    pathRoot,
    ranInto: (id: string) => void (runId ??= id),
  };
  const uploads = uploadsOf(reports);
  let done = 0;
  let results = 0;
  const bar = () => print.err.redraw(progressLine(done, reports.length, results));
  if (io.progressBar) bar();
  const upload = async (one: Upload) => {
    const sent = await uploadOne(client, target, one);
    for (const result of sent) {
      done++;
      results += result.accepted;
      if (!io.progressBar) {
        log(
          `[${done}/${reports.length}] ${result.file}: ${result.accepted} results${result.replayed ? ' (sent before: stored once)' : ''}`,
        );
      }
    }
    if (io.progressBar) bar();
    return sent;
  };
  // The evidence's files are hashed while the reports go up.
  const evidence = command.attachments ? evidenceOf(reports, io.cwd, pathRoot) : [];
  const contents = evidence.length > 0 ? contentsOf(evidence) : undefined;
  const uploaded = await uploadAll(uploads, UPLOAD_CONCURRENCY, upload, named).finally(() => {
    if (io.progressBar) print.err.line('');
  });
  if (runId === undefined) throw new ReporterError(`No report was sent to run ${named}.`);
  // Before the run is completed: a completed run takes no attachments (CONTRACT §15).
  const attachments = contents
    ? await attach(evidence, contents, { runId, configuration, rerun }, io, log)
    : undefined;
  if (command.complete) {
    const completed = await completeRun(client, runId);
    log(completed.already ? 'run was completed already' : 'run completed');
    return finish(
      client,
      { ...command, details: true },
      { runId, run: completed.run, uploaded, attachments, completed: true },
      ci,
      io,
      print,
    );
  }
  // A submit that reads the gate is a pipeline's one job: its whole report is read.
  return finish(
    client,
    { ...command, details: true },
    { runId, runName, uploaded, attachments },
    ci,
    io,
    print,
  );
}

/**
 * Attaches the evidence the stored reports name to their results (attachments.ts), saying what
 * it did; nothing of it fails the submit. Its own client: no retry message is worth more than
 * the warning that follows.
 */
async function attach(
  evidence: Evidence[],
  contents: ReturnType<typeof contentsOf>,
  target: { runId: string; configuration?: string; rerun?: string },
  io: Context,
  log: (text: string) => void,
): Promise<AttachmentsSent> {
  const connection = connectionFrom(io.env);
  const sent = await sendAttachments(
    clientFor(io, log),
    {
      transport: io.retry?.transport ?? transportThrough(connection.proxies),
      serviceOrigin: new URL(connection.baseUrl).origin,
      extraHeaders: connection.extraHeaders,
      sleep: io.retry?.sleep,
      random: io.retry?.random,
    },
    target,
    evidence,
    (text) => log(`warning: ${text}`),
    contents,
  );
  const kib = Math.round(sent.bytes / 1024);
  log(
    `attachments: ${sent.stored} of ${sent.named} attached (${sent.uploaded} uploaded, ${kib} KiB; the others' content was stored already)${sent.skipped.length ? `, ${sent.skipped.length} not attached` : ''}`,
  );
  return sent;
}

async function complete(
  command: Extract<Command, { name: 'complete' }>,
  io: Context,
  print: Output,
): Promise<number> {
  const { log } = print;
  const client = clientFor(io, log);
  const ci = detectCi(io.env);
  const found = await findRun(client, command, ci, log);
  const completed = await completeRun(client, found.runId, found.run);
  const name = completed.run.name;
  log(completed.already ? `run "${name}" was completed already` : `run "${name}" completed`);
  // The gate's details cost three calls more at least: complete, the one job of a pipeline
  // that reads the gate, reads them when asked (--details).
  return finish(
    client,
    command,
    { runId: found.runId, run: completed.run, completed: true },
    ci,
    io,
    print,
  );
}

function outputOf(io: Io): Output {
  const secrets = secretsOf(io.env);
  const err = printer(io.err, secrets);
  return {
    out: printer(io.out, secrets),
    err,
    log: (text) => err.line(`tm-report: ${text}`),
    file: (lines) => document(lines, secrets),
  };
}

/**
 * An error as printed lines: a ReporterError's message (and the usage it refers to), else the
 * unexpected error's message and its stack's frames (for a bug report).
 */
function errorLines(error: unknown): { message: string; more: string[] } {
  if (error instanceof IncompleteUploadError) {
    const total = error.stored.length + error.notStored.length;
    return {
      message: error.message,
      more: [
        `Stored (${error.stored.length} of ${total} reports):`,
        ...error.stored.map((u) => `  ${u.file}: ${u.accepted} results`),
        `Not stored (${error.notStored.length} of ${total} reports):`,
        ...error.notStored.map((n) => `  ${n.file}: ${n.error}`),
      ],
    };
  }
  if (error instanceof UsageError)
    return { message: error.message, more: ['', ...error.usage.split('\n')] };
  if (error instanceof ReporterError) return { message: error.message, more: [] };
  const { name, message, stack } = (error ?? {}) as Partial<Error>;
  const frames = String(stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line));
  return {
    message: `unexpected error: ${name ?? 'Error'}: ${message ?? String(error)}`,
    more: frames,
  };
}

/** Which reports a submit that failed half-way stored and which not, for its JSON answer. */
function filesOf(error: unknown) {
  if (!(error instanceof IncompleteUploadError)) return {};
  return {
    stored: error.stored.map((u) => u.file),
    not_stored: error.notStored.map(({ file, error: why }) => ({ file, error: why })),
  };
}

/** Runs a command line; returns the exit code. Errors are reported on stderr (and as JSON). */
export async function main(argv: string[], io: Io): Promise<number> {
  let json = argv.includes('--json');
  const print = outputOf(io);
  try {
    const command = parseCommand(argv, io.env, io.cwd);
    if (command.name === 'help') {
      print.out.line(...command.text.split('\n'));
      return EXIT.ok;
    }
    json = command.json;
    return command.name === 'submit'
      ? await submit(command, io, print)
      : await complete(command, io, print);
  } catch (error) {
    const { message, more } = errorLines(error);
    print.log(`error: ${message}`);
    print.err.line(...more);
    if (json) print.out.line(JSON.stringify({ ok: false, error: message, ...filesOf(error) }));
    return error instanceof ReporterError ? error.exitCode : EXIT.error;
  }
}
