import type { ResultStatus } from '../entities/result-status.js';
import { mergeReruns } from '../report-reruns.js';
import type { ResultItem } from '../result-items.js';
import {
  enumField,
  isObject,
  type JsonObject,
  listField,
  objectAt,
  optionalList,
  optionalNumber,
  optionalString,
  stringField,
} from './json-fields.js';
import { type ReportOptions, withoutPathRoot } from './report-formats.js';
import {
  durationMs,
  joinTitles,
  NO_FAILURE,
  type ReportAttempt,
  type ReportFailure,
  jsonReportItem,
  splitError,
  withoutAnsi,
} from './json-report-item.js';

/** Whether a parsed document is Playwright's JSON report: `config` and `suites`. */
export function isPlaywrightReport(document: unknown): boolean {
  return isObject(document) && document.config !== undefined && document.suites !== undefined;
}

/** A test's outcome over its retries (CONTRACT §14); `expected` may end skipped. */
const TEST_STATUS: Readonly<Record<string, ResultStatus>> = {
  expected: 'passed',
  unexpected: 'failed',
  flaky: 'passed',
  skipped: 'skipped',
};

/** One run of a test (a result). */
const ATTEMPT_STATUS: Readonly<Record<string, ResultStatus>> = {
  passed: 'passed',
  failed: 'failed',
  timedOut: 'failed',
  interrupted: 'failed',
  skipped: 'skipped',
};

/**
 * Playwright's JSON reporter: one result per test × project (`specs[].tests[]`), named
 * `file.describe › … › title` as its JUnit reporter names it (`classname.name`), in the
 * project's configuration; every result but the last is an earlier attempt.
 */
export function parsePlaywrightReport(document: unknown, options: ReportOptions): ResultItem[] {
  const root = objectAt(document, 'body');
  const suites = listField(root, 'suites', 'body');
  const items: ResultItem[] = [];
  for (let i = 0; i < suites.length; i++) {
    const path = `body.suites[${i}]`;
    const suite = objectAt(suites[i], path);
    // A top-level suite is a file: its title is the file, not a title of its tests.
    readSuite(suite, path, [], optionalString(suite, 'file', path), options, items);
  }
  return mergeReruns(items);
}

function readSuite(
  suite: JsonObject,
  path: string,
  titles: string[],
  file: string | null,
  options: ReportOptions,
  items: ResultItem[],
): void {
  const specs = optionalList(suite, 'specs', path);
  for (let i = 0; i < specs.length; i++) {
    const specPath = `${path}.specs[${i}]`;
    readSpec(objectAt(specs[i], specPath), specPath, titles, file, options, items);
  }
  const children = optionalList(suite, 'suites', path);
  for (let i = 0; i < children.length; i++) {
    const childPath = `${path}.suites[${i}]`;
    const child = objectAt(children[i], childPath);
    const title = stringField(child, 'title', childPath);
    const childFile = optionalString(child, 'file', childPath) ?? file;
    readSuite(child, childPath, [...titles, title], childFile, options, items);
  }
}

function readSpec(
  spec: JsonObject,
  path: string,
  titles: string[],
  suiteFile: string | null,
  options: ReportOptions,
  items: ResultItem[],
): void {
  const title = stringField(spec, 'title', path);
  const file = withoutPathRoot(
    optionalString(spec, 'file', path) ?? suiteFile ?? '',
    options.pathRoot,
  );
  const name = joinTitles([...titles, title]);
  const derivedId = file === '' ? name : `${file}.${name}`;
  const section = joinTitles([file, ...titles]) || null;
  const tests = listField(spec, 'tests', path);
  for (let i = 0; i < tests.length; i++) {
    const testPath = `${path}.tests[${i}]`;
    const test = objectAt(tests[i], testPath);
    const status = enumField(test, 'status', testPath, TEST_STATUS);
    const attempts = attemptsOf(test, testPath);
    const final = attempts.pop() ?? { status, durationMs: null, ...NO_FAILURE };
    items.push(
      jsonReportItem(
        {
          derivedId,
          title,
          section,
          final: {
            ...final,
            // `expected` is the outcome hoped for: a test marked to skip is expected, and skipped.
            status: test.status === 'expected' && final.status === 'skipped' ? 'skipped' : status,
          },
          earlier: attempts,
          configuration: optionalString(test, 'projectName', testPath),
        },
        options.configuration,
      ),
    );
  }
}

function attemptsOf(test: JsonObject, path: string): ReportAttempt[] {
  const results = optionalList(test, 'results', path);
  const attempts: ReportAttempt[] = [];
  for (let i = 0; i < results.length; i++) {
    const resultPath = `${path}.results[${i}]`;
    const result = objectAt(results[i], resultPath);
    attempts.push({
      status: enumField(result, 'status', resultPath, ATTEMPT_STATUS),
      durationMs: durationMs(optionalNumber(result, 'duration', resultPath)),
      ...failureOf(result, resultPath),
    });
  }
  return attempts;
}

/** A result's `error` (the first of its `errors`): its message, and its stack when it has one. */
function failureOf(result: JsonObject, path: string): ReportFailure {
  let error: unknown = result.error;
  let errorPath = `${path}.error`;
  if (error === undefined || error === null) {
    const errors = optionalList(result, 'errors', path);
    if (errors.length === 0) return NO_FAILURE;
    error = errors[0];
    errorPath = `${path}.errors[0]`;
  }
  const detail = objectAt(error, errorPath);
  const message = optionalString(detail, 'message', errorPath);
  const stack = optionalString(detail, 'stack', errorPath);
  if (stack === null) return splitError(message);
  return {
    message: message === null ? splitError(stack).message : withoutAnsi(message),
    failureType: null,
    stackTrace: withoutAnsi(stack),
  };
}
