import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ReporterError } from './errors.js';
import { contentTypeOf, nameOf, withExtensionOf, type Evidence } from './evidence.js';
import { ITEM_LIMITS, cutText, shortened } from './item-limits.js';
import type { ResultItem } from './json-report.js';
import { jsonErrorOffset } from './json-report.js';
import { lineAt } from './report-syntax.js';

type ResultStatus = ResultItem['status'];
type ResultAttempt = NonNullable<ResultItem['attempts']>[number];

/**
 * An Allure results folder (`allure-results/`) is not one document but a file per test
 * attempt, `<uuid>-result.json`, beside containers and attachments: the reporter reads it into
 * the JSON command's result items (CONTRACT §14).
 *
 * 1. Each `*-result.json` is one attempt of a test (`readAttempt`).
 * 2. Attempts sharing a `historyId` are one test's (a runner's retries); the latest, by `stop`,
 *    is the result, the earlier ones its `attempts` (`itemOf`).
 * 3. The automation id is the `fullName`; the configuration, the values of the `parameters`
 *    the writer did not mark `excluded` (allure-playwright's `Project`), so that a test run in
 *    two projects is two results, not one retried.
 */
export function readAllureFolder(
  files: string[],
  cwd: string,
  pathRoot: string | undefined,
): ResultItem[] {
  return readAllureResults(files, cwd, pathRoot, '').items;
}

/**
 * The folder's result items and their evidence: the files every attempt of a test names in its
 * `attachments` and its steps' (`source`, a file beside the result), all attached to the test's
 * one result (a retry's trace explains the flaky pass). `folder` names the report in warnings.
 */
export function readAllureResults(
  files: string[],
  cwd: string,
  pathRoot: string | undefined,
  folder: string,
): { items: ResultItem[]; evidence: Evidence[] } {
  const tests = new Map<string, AllureAttempt[]>();
  for (const file of files) {
    const attempt = readAttempt(file, cwd, pathRoot);
    const key = attempt.historyId ?? `${attempt.automationId}\u0000${attempt.configuration ?? ''}`;
    const attempts = tests.get(key);
    if (attempts) attempts.push(attempt);
    else tests.set(key, [attempt]);
  }
  const results = [...tests.values()].map((attempts) => ({ attempts, item: itemOf(attempts) }));
  results.sort((a, b) => byName(a.item, b.item));
  const evidence = results.flatMap(({ attempts, item }) =>
    [...attempts].sort(byTime).flatMap((attempt) =>
      attempt.attachments.map((attachment): Evidence => ({
        report: folder,
        automationId: item.automation_id as string,
        configuration: item.configuration,
        name: nameOf(withExtensionOf(attachment.name, attachment.source)),
        contentType: contentTypeOf(attachment.type, attachment.source),
        source: { file: path.resolve(cwd, path.dirname(attempt.file), attachment.source) },
      })),
    ),
  );
  return { items: results.map((r) => r.item), evidence };
}

/** The `*-result.json` files of a folder, sorted (containers and attachments are not results). */
export function allureResultFiles(folder: string, cwd: string): string[] {
  return readdirSync(path.resolve(cwd, folder))
    .filter((name) => ALLURE_RESULT.test(name))
    .sort()
    .map((name) => path.join(folder, name));
}

export const ALLURE_RESULT = /-result\.json$/;

const MAX_ATTEMPTS_SENT = 1000;

/**
 * Allure's statuses as results': `broken` (an error other than a failed assertion) is a
 * failure, its `failure_type` saying `broken`; `unknown` (the outcome was not recorded, e.g. an
 * interrupted run) is `retest`, as NUnit's Inconclusive is.
 */
const STATUS: Readonly<Record<string, ResultStatus>> = {
  passed: 'passed',
  failed: 'failed',
  broken: 'failed',
  skipped: 'skipped',
  unknown: 'retest',
};

/** One `*-result.json`: one attempt of a test. */
interface AllureAttempt {
  file: string;
  automationId: string;
  title: string;
  section?: string;
  configuration?: string;
  historyId?: string;
  status: ResultStatus;
  failureType?: string;
  message?: string;
  stackTrace?: string;
  start?: number;
  stop?: number;
  /** The files its `attachments` and its steps' name (a file name in the folder). */
  attachments: { name: string; source: string; type?: string }[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** Epoch milliseconds a Date can hold. */
const time = (value: unknown): number | undefined =>
  typeof value === 'number' && value >= 0 && value <= 8.64e15 ? value : undefined;

function readAttempt(file: string, cwd: string, pathRoot: string | undefined): AllureAttempt {
  const fail = (line: number, message: string): never => {
    throw new ReporterError(`${file}:${line}: invalid Allure result: ${message}.`);
  };
  let source: string;
  try {
    source = readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new ReporterError(
      `${file}: cannot read the Allure result (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    );
  }
  let result: unknown;
  try {
    result = JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
  } catch (error) {
    const at = jsonErrorOffset(source);
    fail(at === -1 ? 1 : lineAt(source, at), `not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(result)) return fail(1, 'not an object');
  const name = text(result.fullName) ?? text(result.name);
  if (name === undefined) return fail(1, 'it has neither fullName nor name');
  // A result still running when the runner stopped has no status: its outcome is unknown.
  const allureStatus = result.status ?? 'unknown';
  const status = typeof allureStatus === 'string' ? STATUS[allureStatus] : undefined;
  if (status === undefined) {
    fail(
      1,
      `status ${JSON.stringify(allureStatus)} is not one of ${Object.keys(STATUS).join(', ')}`,
    );
  }
  const details = isObject(result.statusDetails) ? result.statusDetails : {};
  return {
    file,
    automationId: pathRoot && name.startsWith(pathRoot) ? name.slice(pathRoot.length) : name,
    title: text(result.name) ?? name,
    section: sectionOf(result.titlePath),
    configuration: configurationOf(result.parameters),
    historyId: text(result.historyId),
    status: status as ResultStatus,
    failureType: allureStatus === 'broken' ? 'broken' : undefined,
    message: text(details.message),
    stackTrace: text(details.trace),
    start: time(result.start),
    stop: time(result.stop),
    attachments: attachmentsOf(result),
  };
}

/** Most attachments read of one result (its steps' included): beyond them, a runaway writer. */
const MAX_ATTACHMENTS = 1000;

/**
 * The attachments of a result and of its steps, depth first in their order. Only a plain file
 * name in the folder is taken as `source` (never a path that leaves it).
 */
function attachmentsOf(result: Record<string, unknown>): AllureAttempt['attachments'] {
  const found: AllureAttempt['attachments'] = [];
  const visit = (node: Record<string, unknown>, depth: number) => {
    if (depth > 100) return;
    for (const attachment of Array.isArray(node.attachments) ? node.attachments : []) {
      if (found.length >= MAX_ATTACHMENTS || !isObject(attachment)) continue;
      const source = text(attachment.source);
      if (source === undefined || source !== path.basename(source) || source.startsWith('.'))
        continue;
      found.push({
        name: text(attachment.name) ?? source,
        source,
        type: text(attachment.type),
      });
    }
    for (const step of Array.isArray(node.steps) ? node.steps : [])
      if (isObject(step)) visit(step, depth + 1);
  };
  visit(result, 0);
  return found;
}

/** Allure 3's `titlePath` (package, file, describe blocks) as the section of a new case. */
function sectionOf(titlePath: unknown): string | undefined {
  if (!Array.isArray(titlePath)) return undefined;
  const titles = titlePath.filter(
    (title): title is string => typeof title === 'string' && title !== '',
  );
  return titles.length > 0 ? cutText(titles.join(' › '), ITEM_LIMITS.section) : undefined;
}

/** The values of the parameters not `excluded` from the test's identity, joined by ` / `. */
function configurationOf(parameters: unknown): string | undefined {
  if (!Array.isArray(parameters)) return undefined;
  const values = parameters
    .filter((p) => isObject(p) && p.excluded !== true && typeof p.value === 'string')
    .map((p) => (p as { value: string }).value.trim())
    .filter((value) => value !== '');
  return values.length > 0 ? shortened(values.join(' / '), ITEM_LIMITS.configuration) : undefined;
}

/** The order attempts ran in: by `stop`, then `start`, then file name. */
function byTime(a: AllureAttempt, b: AllureAttempt): number {
  return (
    (a.stop ?? a.start ?? 0) - (b.stop ?? b.start ?? 0) ||
    (a.start ?? 0) - (b.start ?? 0) ||
    a.file.localeCompare(b.file)
  );
}

function byName(a: ResultItem, b: ResultItem): number {
  return (
    (a.automation_id ?? '').localeCompare(b.automation_id ?? '') ||
    (a.configuration ?? '').localeCompare(b.configuration ?? '')
  );
}

const durationOf = (attempt: AllureAttempt): number | undefined =>
  attempt.start !== undefined && attempt.stop !== undefined && attempt.stop >= attempt.start
    ? Math.round(attempt.stop - attempt.start)
    : undefined;

/** What one attempt says of its outcome, as a result's and an attempt's fields. */
function outcomeOf(attempt: AllureAttempt): ResultAttempt {
  return {
    status: attempt.status,
    duration_ms: durationOf(attempt),
    message: attempt.message && cutText(attempt.message, ITEM_LIMITS.message),
    failure_type: attempt.failureType,
    stack_trace: attempt.stackTrace && cutText(attempt.stackTrace, ITEM_LIMITS.stackTrace),
  };
}

/** Without the fields left undefined, so the JSON sent (and its idempotency key) is stable. */
function defined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;
}

/** A test's attempts as one result: the latest is final, the earlier ones its `attempts`. */
function itemOf(attempts: AllureAttempt[]): ResultItem {
  const ordered = [...attempts].sort(byTime);
  const final = ordered[ordered.length - 1];
  // The service takes up to 1,000 attempts (it keeps the latest 20, counting all as retries).
  const earlier = ordered.slice(-1 - MAX_ATTEMPTS_SENT, -1).map((a) => defined(outcomeOf(a)));
  return defined({
    automation_id: shortened(final.automationId, ITEM_LIMITS.automationId),
    title: cutText(final.title, ITEM_LIMITS.title),
    section: final.section,
    configuration: final.configuration,
    ...outcomeOf(final),
    executed_at: final.start === undefined ? undefined : new Date(final.start).toISOString(),
    // The service counts the failed ones as `retries` (CONTRACT §13).
    attempts: earlier.length > 0 ? earlier : undefined,
  });
}
