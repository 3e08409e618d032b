import type { SaxesTagPlain } from 'saxes';
import type { ResultStatus } from '../entities/result-status.js';
import type { ResultItem } from '../result-items.js';
import type { ReportOptions } from './report-formats.js';
import { type ReportedTest, reportItems, secondsToMs, statusOf } from './report-item.js';
import { attribute, BoundedText, notOfFormat, streamXml } from './xml-stream.js';

const LABEL = 'NUnit 3 report (<test-run>)';

/** NUnit 3's `result` values (CONTRACT §14). */
const RESULTS = new Map<string, ResultStatus>([
  ['Passed', 'passed'],
  ['Failed', 'failed'],
  ['Skipped', 'skipped'],
  ['Inconclusive', 'retest'],
  ['Warning', 'passed'],
]);

interface OpenCase {
  tag: SaxesTagPlain;
  status: ResultStatus;
  /** `<failure><message>`, else `<reason><message>` (why it was skipped or inconclusive). */
  failureMessage: BoundedText;
  reasonMessage: BoundedText;
  stackTrace: BoundedText;
}

/**
 * An NUnit 3 report (`<test-run>`) as result items (CONTRACT §14): one per `<test-case>`,
 * named by its `fullname`, which holds a parameterised test's arguments, so that each row
 * stays a test of its own. Suites nest to any depth (assembly, namespaces, fixtures,
 * parameterised methods); only test cases are results. NUnit's full names carry no file
 * paths: `path_root` does not apply.
 */
export function parseNunitReport(xml: string, options: ReportOptions): ResultItem[] {
  const tests: ReportedTest[] = [];
  let current: OpenCase | null = null;
  /** Elements open inside the test case: its `<failure>` and `<reason>` are at depth 1. */
  let depth = 0;
  let parent = '';
  let collecting: BoundedText | null = null;

  streamXml(xml, LABEL, 'test-run', {
    open(name, tag) {
      if (current === null) {
        if (name === 'test-case') {
          current = openCase(tag);
          depth = 0;
        }
        return;
      }
      depth++;
      if (depth === 1) parent = name;
      else if (depth === 2 && name === 'message') {
        if (parent === 'failure') collecting = current.failureMessage;
        else if (parent === 'reason') collecting = current.reasonMessage;
      } else if (depth === 2 && name === 'stack-trace' && parent === 'failure') {
        collecting = current.stackTrace;
      }
    },
    close(name) {
      if (current === null) return;
      if (depth > 0) {
        if (depth === 2) collecting = null;
        depth--;
        return;
      }
      if (name === 'test-case') {
        tests.push(toTest(current));
        current = null;
      }
    },
    text(text) {
      collecting?.add(text);
    },
  });
  return reportItems(tests, options.configuration);
}

function openCase(tag: SaxesTagPlain): OpenCase {
  return {
    tag,
    status: statusOf(attribute(tag, 'result'), RESULTS, (result) =>
      notOfFormat(
        LABEL,
        `the test-case "${attribute(tag, 'fullname')}" has the result "${result}"`,
      ),
    ),
    failureMessage: new BoundedText(),
    reasonMessage: new BoundedText(),
    stackTrace: new BoundedText(),
  };
}

function toTest(testCase: OpenCase): ReportedTest {
  const { tag, status } = testCase;
  const fullname = attribute(tag, 'fullname');
  const name = attribute(tag, 'name');
  // A failure's kind: NUnit labels an unexpected exception `Error`, a timeout `Cancelled`.
  const label = status === 'failed' ? attribute(tag, 'label') : '';
  return {
    automationId: fullname || name,
    title: name || fullname,
    section: attribute(tag, 'classname') || null,
    status,
    durationMs: secondsToMs(tag.attributes.duration),
    message: testCase.failureMessage.value() ?? testCase.reasonMessage.value(),
    failureType: label || null,
    stackTrace: testCase.stackTrace.value(),
  };
}
