import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCommand, type Command, type RunOptions } from './args.js';
import { detectCi, type CiMetadata } from './ci.js';
import { dataOf, serviceClient, type ServiceClient } from './client.js';
import { connectionFrom, type Env } from './config.js';
import { ReporterError } from './errors.js';
import { readGate, gateText, summaryMarkdown, type GateReport } from './gate.js';
import { expandPatterns } from './glob.js';
import type { RetryOptions } from './http.js';
import { progressLine } from './progress.js';
import { readReport, type Report } from './reports.js';
import { completeRun, resolveRun, type TestRun } from './run.js';
import { mapConcurrently, uploadReport, type Uploaded } from './upload.js';

/** What the reporter touches outside itself, so tests can run it in-process. */
export interface Io {
  env: Env;
  cwd: string;
  out(text: string): void;
  err(text: string): void;
  /** A progress bar redrawn in place (a terminal), instead of a line per report (CI logs). */
  progressBar?: boolean;
  retry?: RetryOptions;
}

/** Files uploaded at once by one job. */
const UPLOAD_CONCURRENCY = 4;

export const EXIT = { ok: 0, gateFailed: 1, error: 2 } as const;

interface Outcome {
  run: TestRun;
  uploaded?: Uploaded[];
  completed?: boolean;
  gate?: GateReport;
}

function clientFor(io: Io, log: (text: string) => void): ServiceClient {
  return serviceClient(connectionFrom(io.env), {
    ...io.retry,
    onRetry: (what, reason, waitMs, attempt) => {
      const wait = waitMs < 1000 ? `${waitMs} ms` : `${(waitMs / 1000).toFixed(1)} s`;
      log(`${what}: ${reason}; retry ${attempt} in ${wait}`);
      io.retry?.onRetry?.(what, reason, waitMs, attempt);
    },
  });
}

function readReports(patterns: string[], io: Io): Report[] {
  return expandPatterns(patterns, io.cwd).map((file) => readReport(file, io.cwd));
}

async function finish(
  client: ServiceClient,
  options: RunOptions,
  outcome: Outcome,
  ci: CiMetadata | undefined,
  io: Io,
): Promise<number> {
  // A completed run is final as completeRun returned it; else read the counts all shards made.
  const run = outcome.completed
    ? outcome.run
    : dataOf(
        'GET /api/v1/testruns/{id}',
        await client.GET('/api/v1/testruns/{id}', { params: { path: { id: outcome.run.id } } }),
      );
  const gate = options.gate ? await readGate(client, run) : undefined;
  const markdown = summaryMarkdown(run, gate, ci?.jobUrl);
  if (io.env.GITHUB_STEP_SUMMARY) appendFileSync(io.env.GITHUB_STEP_SUMMARY, markdown);
  if (options.summary) writeFileSync(path.resolve(io.cwd, options.summary), markdown);
  const c = run.counts;
  if (options.json) {
    io.out(
      `${JSON.stringify({ ok: true, run, uploaded: outcome.uploaded, completed: outcome.completed, gate, gate_passed: gate?.gate.passed })}\n`,
    );
  } else {
    io.out(
      `Run "${run.name}" (${run.id}), ${run.status}: ${c.total} results, ${c.passed} passed, ${c.failed} failed, ${c.blocked} blocked, ${c.skipped} skipped, ${c.flaky} flaky\n`,
    );
    if (gate) io.out(`${gateText(gate)}\n`);
  }
  return gate && !gate.gate.passed ? EXIT.gateFailed : EXIT.ok;
}

async function submit(command: Extract<Command, { name: 'submit' }>, io: Io): Promise<number> {
  const log = (text: string) => io.err(`tm-report: ${text}\n`);
  const reports = readReports(command.patterns, io);
  if (command.dryRun) {
    for (const r of reports) {
      log(`${r.file}: ${r.kind === 'junit' ? 'JUnit XML' : 'JSON'}, ${r.cases} results: ok`);
    }
    const total = reports.reduce((sum, r) => sum + r.cases, 0);
    if (command.json)
      io.out(
        `${JSON.stringify({ ok: true, dry_run: true, files: reports.map((r) => ({ file: r.file, kind: r.kind, results: r.cases })) })}\n`,
      );
    else io.out(`${reports.length} reports, ${total} results: valid (dry run, nothing sent)\n`);
    return EXIT.ok;
  }
  const client = clientFor(io, log);
  const ci = detectCi(io.env);
  const run = await resolveRun(client, command, ci, log);
  log(`run "${run.name}" (${run.id})`);
  let done = 0;
  let results = 0;
  const bar = () => io.err(`\r${progressLine(done, reports.length, results)}`);
  if (io.progressBar) bar();
  const uploaded = await mapConcurrently(reports, UPLOAD_CONCURRENCY, async (report) => {
    const result = await uploadReport(client, run.id, report);
    done++;
    results += result.accepted;
    if (io.progressBar) bar();
    else {
      log(
        `[${done}/${reports.length}] ${report.file}: ${result.accepted} results${result.replayed ? ' (sent before: stored once)' : ''}`,
      );
    }
    return result;
  });
  if (io.progressBar) io.err('\n');
  if (command.complete) {
    const completed = await completeRun(client, run.id);
    log(completed.already ? 'run was completed already' : 'run completed');
    return finish(client, command, { run: completed.run, uploaded, completed: true }, ci, io);
  }
  return finish(client, command, { run, uploaded }, ci, io);
}

async function complete(command: Extract<Command, { name: 'complete' }>, io: Io): Promise<number> {
  const log = (text: string) => io.err(`tm-report: ${text}\n`);
  const client = clientFor(io, log);
  const ci = detectCi(io.env);
  const run = await resolveRun(client, command, ci, log, true);
  const completed = await completeRun(client, run.id);
  log(
    completed.already ? `run "${run.name}" was completed already` : `run "${run.name}" completed`,
  );
  return finish(client, command, { run: completed.run, completed: true }, ci, io);
}

/** Runs a command line; returns the exit code. Errors are reported on stderr (and as JSON). */
export async function main(argv: string[], io: Io): Promise<number> {
  let json = argv.includes('--json');
  try {
    const command = parseCommand(argv);
    if (command.name === 'help') {
      io.out(`${command.text}\n`);
      return EXIT.ok;
    }
    json = command.json;
    return command.name === 'submit' ? await submit(command, io) : await complete(command, io);
  } catch (error) {
    const message =
      error instanceof ReporterError
        ? error.message
        : `unexpected error: ${(error as Error)?.stack ?? String(error)}`;
    io.err(`tm-report: error: ${message}\n`);
    if (json) io.out(`${JSON.stringify({ ok: false, error: message })}\n`);
    return error instanceof ReporterError ? error.exitCode : EXIT.error;
  }
}
