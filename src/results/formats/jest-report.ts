import type { ResultStatus } from '../entities/result-status.js';
import { mergeReruns } from '../report-reruns.js';
import { MAX_KEPT_ATTEMPTS, type ResultItem } from '../result-items.js';
import {
  enumField,
  isObject,
  type JsonObject,
  listField,
  objectAt,
  optionalNumber,
  stringField,
  stringList,
} from './json-fields.js';
import { type ReportOptions, withoutPathRoot } from './report-formats.js';
import {
  durationMs,
  joinTitles,
  NO_FAILURE,
  type ReportAttempt,
  jsonReportItem,
  splitError,
} from './json-report-item.js';

/** Whether a parsed document is Jest's or Vitest's `--json`: `testResults`. */
export function isJestReport(document: unknown): boolean {
  return isObject(document) && document.testResults !== undefined;
}

const STATUS: Readonly<Record<string, ResultStatus>> = {
  passed: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  todo: 'skipped',
  disabled: 'skipped',
};

/**
 * Jest's and Vitest's `--json`: one result per assertion result, named
 * `file.describe › … › title` (CONTRACT §14). Jest counts a test's runs in `invocations`: each
 * before the last failed (its error in `retryReasons` when Jest logged it). Vitest writes no
 * `invocations`, so its results have no attempts (CONTRACT §14: its JUnit report carries them).
 */
export function parseJestReport(document: unknown, options: ReportOptions): ResultItem[] {
  const root = objectAt(document, 'body');
  const files = listField(root, 'testResults', 'body');
  const items: ResultItem[] = [];
  for (let i = 0; i < files.length; i++) {
    const path = `body.testResults[${i}]`;
    const file = objectAt(files[i], path);
    const name = withoutPathRoot(stringField(file, 'name', path), options.pathRoot);
    const assertions = listField(file, 'assertionResults', path);
    for (let j = 0; j < assertions.length; j++) {
      const assertionPath = `${path}.assertionResults[${j}]`;
      items.push(
        readAssertion(objectAt(assertions[j], assertionPath), assertionPath, name, options),
      );
    }
  }
  return mergeReruns(items);
}

function readAssertion(
  assertion: JsonObject,
  path: string,
  file: string,
  options: ReportOptions,
): ResultItem {
  const ancestors = stringList(assertion, 'ancestorTitles', path);
  const title = stringField(assertion, 'title', path);
  const status = enumField(assertion, 'status', path, STATUS);
  const failures = stringList(assertion, 'failureMessages', path);
  const invocations = optionalNumber(assertion, 'invocations', path);
  const final: ReportAttempt = {
    status,
    durationMs: durationMs(optionalNumber(assertion, 'duration', path)),
    ...(status === 'failed' ? splitError(failures.at(-1) ?? null) : NO_FAILURE),
  };
  let earlier: ReportAttempt[];
  let unshownRetries = 0;
  if (invocations !== null) {
    const reasons = stringList(assertion, 'retryReasons', path);
    const count = Math.max(0, Math.floor(invocations) - 1);
    // A count is only a number: the attempts beyond those kept are counted, never built.
    const shown = Math.min(count, MAX_KEPT_ATTEMPTS);
    unshownRetries = count - shown;
    earlier = Array.from({ length: shown }, (_, k) =>
      failedAttempt(reasons[unshownRetries + k] ?? null),
    );
  } else {
    // No `invocations` (Vitest): no attempts (CONTRACT §14), whatever `failureMessages` holds.
    earlier = [];
  }
  const name = joinTitles([...ancestors, title]);
  return jsonReportItem(
    {
      derivedId: file === '' ? name : `${file}.${name}`,
      title,
      section: joinTitles([file, ...ancestors]) || null,
      final,
      earlier,
      unshownRetries,
      configuration: null,
    },
    options.configuration,
  );
}

function failedAttempt(error: string | null): ReportAttempt {
  return { status: 'failed', durationMs: null, ...splitError(error) };
}
