import type { ResultStatus } from '../entities/result-status.js';
import { MAX_KEPT_ATTEMPTS, type ResultItem } from '../result-items.js';
import { mergeReruns } from '../report-reruns.js';
import {
  enumField,
  isObject,
  type JsonObject,
  listField,
  objectAt,
  objectField,
  optionalList,
  optionalNumber,
  optionalString,
  stringField,
  stringList,
} from './json-fields.js';
import { type ReportOptions, withoutPathRoot } from './report-formats.js';
import {
  durationMs,
  joinTitles,
  NO_FAILURE,
  type ReportAttempt,
  type ReportFailure,
  jsonReportItem,
  withoutAnsi,
} from './json-report-item.js';

/** Whether a parsed document is a CTRF report: `results.tool` and `results.tests`. */
export function isCtrfReport(document: unknown): boolean {
  if (!isObject(document) || !isObject(document.results)) return false;
  return document.results.tool !== undefined && document.results.tests !== undefined;
}

const STATUS: Readonly<Record<string, ResultStatus>> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  pending: 'skipped',
  other: 'blocked',
};

/**
 * CTRF (Common Test Report Format): one result per test, named `filePath.suite › name` (CONTRACT
 * §14), its earlier attempts from `retryAttempts`, else as many failed attempts as `retries`
 * says (with nothing more known of them).
 */
export function parseCtrfReport(document: unknown, options: ReportOptions): ResultItem[] {
  const root = objectAt(document, 'body');
  const results = objectField(root, 'results', 'body');
  objectField(results, 'tool', 'body.results');
  const tests = listField(results, 'tests', 'body.results');
  const items: ResultItem[] = new Array<ResultItem>(tests.length);
  for (let i = 0; i < tests.length; i++) {
    const path = `body.results.tests[${i}]`;
    items[i] = readTest(objectAt(tests[i], path), path, options);
  }
  return mergeReruns(items);
}

function readTest(test: JsonObject, path: string, options: ReportOptions): ResultItem {
  const name = stringField(test, 'name', path);
  const filePath = withoutPathRoot(optionalString(test, 'filePath', path) ?? '', options.pathRoot);
  const suite = suiteOf(test, path);
  let derivedId = name;
  if (suite !== '') derivedId = `${suite} › ${derivedId}`;
  if (filePath !== '') derivedId = `${filePath}.${derivedId}`;
  const retryAttempts = test.retryAttempts;
  let earlier: ReportAttempt[];
  let unshownRetries = 0;
  if (retryAttempts !== undefined && retryAttempts !== null) {
    const list = optionalList(test, 'retryAttempts', path);
    earlier = list.map((attempt, j) =>
      attemptOf(objectAt(attempt, `${path}.retryAttempts[${j}]`), `${path}.retryAttempts[${j}]`),
    );
  } else {
    const retries = optionalNumber(test, 'retries', path) ?? 0;
    // Only the count is known: the attempts kept are blank failures, the rest only counted.
    const shown = Math.min(Math.max(0, Math.floor(retries)), MAX_KEPT_ATTEMPTS);
    earlier = Array.from({ length: shown }, () => ({
      status: 'failed' as const,
      durationMs: null,
      ...NO_FAILURE,
    }));
    unshownRetries = Math.max(0, Math.floor(retries)) - shown;
  }
  return jsonReportItem(
    {
      derivedId,
      title: name,
      section: joinTitles([filePath, suite]) || null,
      final: attemptOf(test, path),
      earlier,
      unshownRetries,
      configuration: null,
    },
    options.configuration,
  );
}

/** `suite`: a string, or a list of suites from the outermost. */
function suiteOf(test: JsonObject, path: string): string {
  const suite = test.suite;
  if (typeof suite === 'string') return suite;
  return joinTitles(stringList(test, 'suite', path));
}

function attemptOf(test: JsonObject, path: string): ReportAttempt {
  return {
    status: enumField(test, 'status', path, STATUS),
    durationMs: durationMs(optionalNumber(test, 'duration', path)),
    ...failureOf(test, path),
  };
}

function failureOf(test: JsonObject, path: string): ReportFailure {
  const message = optionalString(test, 'message', path);
  const trace = optionalString(test, 'trace', path);
  if (message === null && trace === null) return NO_FAILURE;
  return {
    message: message === null ? null : withoutAnsi(message).trimEnd() || null,
    failureType: null,
    stackTrace: trace === null ? null : withoutAnsi(trace).trimEnd() || null,
  };
}
