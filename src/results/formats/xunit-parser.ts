import type { SaxesTagPlain } from 'saxes';
import type { ResultStatus } from '../entities/result-status.js';
import type { ResultItem } from '../result-items.js';
import type { ReportOptions } from './report-formats.js';
import { type ReportedTest, reportItems, secondsToMs, statusOf } from './report-item.js';
import { attribute, BoundedText, notOfFormat, streamXml } from './xml-stream.js';

const LABEL = 'xUnit.net v2 report (<assemblies>)';

/** xUnit.net's `result` values (CONTRACT §14); `NotRun` is schema version 3's. */
const RESULTS = new Map<string, ResultStatus>([
  ['Pass', 'passed'],
  ['Fail', 'failed'],
  ['Skip', 'skipped'],
  ['NotRun', 'untested'],
]);

interface OpenTest {
  tag: SaxesTagPlain;
  status: ResultStatus;
  message: BoundedText;
  stackTrace: BoundedText;
  /** `<reason>`: why it was skipped. */
  reason: BoundedText;
  exceptionType: string;
}

/**
 * An xUnit.net v2 report (`<assemblies>`) as result items (CONTRACT §14): one per `<test>`,
 * named by its `name`, which holds a theory's arguments, so that each row stays a test of its
 * own. Assembly-level `<errors>` (a fixture's cleanup failing) are not tests and are left
 * out. xUnit's names carry no file paths: `path_root` does not apply.
 */
export function parseXunitReport(xml: string, options: ReportOptions): ResultItem[] {
  const tests: ReportedTest[] = [];
  let current: OpenTest | null = null;
  let depth = 0;
  let parent = '';
  let collecting: BoundedText | null = null;

  streamXml(xml, LABEL, 'assemblies', {
    open(name, tag) {
      if (current === null) {
        if (name === 'test') {
          current = openTest(tag);
          depth = 0;
        }
        return;
      }
      depth++;
      if (depth === 1) {
        parent = name;
        if (name === 'failure') current.exceptionType = attribute(tag, 'exception-type');
        else if (name === 'reason') collecting = current.reason;
      } else if (depth === 2 && parent === 'failure') {
        if (name === 'message') collecting = current.message;
        else if (name === 'stack-trace') collecting = current.stackTrace;
      }
    },
    close(name) {
      if (current === null) return;
      if (depth > 0) {
        collecting = null;
        depth--;
        return;
      }
      if (name === 'test') {
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

function openTest(tag: SaxesTagPlain): OpenTest {
  return {
    tag,
    status: statusOf(attribute(tag, 'result'), RESULTS, (result) =>
      notOfFormat(LABEL, `the test "${attribute(tag, 'name')}" has the result "${result}"`),
    ),
    message: new BoundedText(),
    stackTrace: new BoundedText(),
    reason: new BoundedText(),
    exceptionType: '',
  };
}

function toTest(test: OpenTest): ReportedTest {
  const name = attribute(test.tag, 'name');
  const type = attribute(test.tag, 'type');
  return {
    automationId: name,
    // The test's own name: its method and arguments, without the class in front.
    title: type && name.startsWith(`${type}.`) ? name.slice(type.length + 1) : name,
    section: type || null,
    status: test.status,
    durationMs: secondsToMs(test.tag.attributes.time),
    message: test.message.value() ?? test.reason.value(),
    failureType: test.exceptionType || null,
    stackTrace: test.stackTrace.value(),
  };
}
