import type { ResultStatus } from '../entities/result-status.js';
import type { ResultItem } from '../result-items.js';
import type { ReportOptions } from './report-formats.js';
import { millisecondsOf, type ReportedTest, reportItems, statusOf } from './report-item.js';
import { attribute, BoundedText, notOfFormat, streamXml } from './xml-stream.js';

const LABEL = 'TRX report (VSTest <TestRun>)';

/**
 * vstst.xsd's outcomes. CONTRACT §14 names the usual ones; the rest are mapped by what they
 * say: a run aborted after the test passed still passed it, a test that could not run did not.
 */
const OUTCOMES = new Map<string, ResultStatus>([
  ['Passed', 'passed'],
  ['PassedButRunAborted', 'passed'],
  ['Completed', 'passed'],
  ['Warning', 'passed'],
  ['Failed', 'failed'],
  ['Error', 'failed'],
  ['Timeout', 'failed'],
  ['Aborted', 'failed'],
  ['Disconnected', 'failed'],
  ['NotExecuted', 'skipped'],
  ['Inconclusive', 'skipped'],
  ['Pending', 'skipped'],
  ['NotRunnable', 'skipped'],
  ['InProgress', 'untested'],
]);

/** A `UnitTestResult` read; its class is known once the definitions are (before or after). */
interface ReadResult {
  testId: string;
  testName: string;
  status: ResultStatus;
  durationMs: number | null;
  message: BoundedText;
  stackTrace: BoundedText;
  /** A data-driven test's parent: its rows (`InnerResults`) are the results, not it. */
  hasInnerResults: boolean;
}

/**
 * A VSTest TRX report (`<TestRun>`) as result items (CONTRACT §14): one per `UnitTestResult`,
 * named by its `testName` after its test method's `className`. The definitions
 * (`TestDefinitions/UnitTest/TestMethod`) may come before or after the results, so results
 * are held with their `testId` and joined with the classes at the end: one pass, memory
 * proportional to the number of tests. TRX carries no file paths in names: `path_root` does
 * not apply.
 */
export function parseTrxReport(xml: string, options: ReportOptions): ResultItem[] {
  const results: ReadResult[] = [];
  const classNames = new Map<string, string>();
  /** Open results: a data-driven result holds its rows' results. */
  const open: ReadResult[] = [];
  let definitionId: string | null = null;
  let inErrorInfo = false;
  let collecting: BoundedText | null = null;

  streamXml(xml, LABEL, 'TestRun', {
    open(name, tag) {
      if (name === 'UnitTestResult') {
        const parent = open.at(-1);
        if (parent) parent.hasInnerResults = true;
        open.push(readResult(tag));
      } else if (name === 'UnitTest') {
        definitionId = attribute(tag, 'id');
      } else if (name === 'TestMethod' && definitionId !== null) {
        classNames.set(definitionId, className(attribute(tag, 'className')));
      } else if (open.length > 0) {
        if (name === 'ErrorInfo') inErrorInfo = true;
        else if (inErrorInfo && name === 'Message') collecting = open.at(-1)!.message;
        else if (inErrorInfo && name === 'StackTrace') collecting = open.at(-1)!.stackTrace;
      }
    },
    close(name) {
      if (name === 'UnitTestResult') {
        const result = open.pop()!;
        if (!result.hasInnerResults) results.push(result);
      } else if (name === 'UnitTest') definitionId = null;
      else if (name === 'ErrorInfo') inErrorInfo = false;
      else if (name === 'Message' || name === 'StackTrace') collecting = null;
    },
    text(text) {
      collecting?.add(text);
    },
  });
  return reportItems(
    results.map((result) => toTest(result, classNames.get(result.testId) ?? '')),
    options.configuration,
  );
}

function readResult(tag: Parameters<typeof attribute>[0]): ReadResult {
  const testName = attribute(tag, 'testName');
  return {
    testId: attribute(tag, 'testId'),
    testName,
    // A result without an outcome recorded none (a run cut short): untested, not a guess.
    status:
      attribute(tag, 'outcome') === ''
        ? 'untested'
        : statusOf(attribute(tag, 'outcome'), OUTCOMES, (outcome) =>
            notOfFormat(LABEL, `the UnitTestResult "${testName}" has the outcome "${outcome}"`),
          ),
    durationMs: durationOf(attribute(tag, 'duration')),
    message: new BoundedText(),
    stackTrace: new BoundedText(),
    hasInnerResults: false,
  };
}

/**
 * The automation id (CONTRACT §14): `testName` after `className` + `.`, unless `testName`
 * already begins with it (xUnit's and NUnit's adapters write full names there) or the
 * method has no class.
 */
function toTest(result: ReadResult, classOf: string): ReportedTest {
  const { testName } = result;
  const qualified = classOf !== '' && testName.startsWith(`${classOf}.`);
  return {
    automationId: classOf === '' || qualified ? testName : `${classOf}.${testName}`,
    // The test's own name: its method (and a row's arguments), without the class in front.
    title: qualified ? testName.slice(classOf.length + 1) : testName,
    section: classOf || null,
    status: result.status,
    durationMs: result.durationMs,
    message: result.message.value(),
    failureType: null,
    stackTrace: result.stackTrace.value(),
  };
}

/**
 * A test method's class. Older MSTest writes it assembly-qualified
 * (`Ns.Class, Ns, Version=1.0.0.0, …`): the class is what comes before the first comma
 * outside a generic's brackets.
 */
function className(value: string): string {
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (char === '[') depth++;
    else if (char === ']') depth--;
    else if (char === ',' && depth === 0) return value.slice(0, i).trim();
  }
  return value;
}

/** A .NET TimeSpan: `[d.]hh:mm:ss[.fffffff]`. */
const TIME_SPAN = /^(?:(\d+)\.)?(\d+):(\d+):(\d+(?:\.\d+)?)$/;

export function durationOf(value: string): number | null {
  const match = TIME_SPAN.exec(value);
  if (!match) return null;
  const [, days, hours, minutes, seconds] = match;
  return millisecondsOf(
    ((Number(days ?? 0) * 24 + Number(hours)) * 60 + Number(minutes)) * 60_000 +
      Number(seconds) * 1000,
  );
}
