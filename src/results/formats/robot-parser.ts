import type { SaxesTagPlain } from 'saxes';
import type { ResultStatus } from '../entities/result-status.js';
import type { ResultItem } from '../result-items.js';
import type { ReportOptions } from './report-formats.js';
import {
  millisecondsOf,
  type ReportedTest,
  reportItems,
  secondsToMs,
  statusOf,
} from './report-item.js';
import { attribute, BoundedText, notOfFormat, streamXml } from './xml-stream.js';

const LABEL = 'Robot Framework output.xml (<robot>)';

/** A test's statuses (CONTRACT §14); RF 3 writes only PASS and FAIL. */
const STATUSES = new Map<string, ResultStatus>([
  ['PASS', 'passed'],
  ['FAIL', 'failed'],
  ['SKIP', 'skipped'],
  ['NOT RUN', 'untested'],
]);

interface OpenTest {
  name: string;
  /** The test's own `<status>` (its keywords' are deeper), once read. */
  status: SaxesTagPlain | null;
  message: BoundedText;
}

/**
 * A Robot Framework `output.xml` (`<robot>`, RF 3 to 7) as result items (CONTRACT §14): one
 * per `<test>`, named by its long name, its suites' names and its own joined by `.`. The
 * test's message is its `<status>` element's text; its duration is the status's `elapsed`
 * (RF 7) or its `endtime` less its `starttime` (RF 3–6).
 *
 * `path_root` does not apply: the suites' `source` paths are not part of a long name (suite
 * names come from file and folder names, without their location), so ids already do not
 * depend on where the checkout lay.
 */
export function parseRobotReport(xml: string, options: ReportOptions): ResultItem[] {
  const tests: ReportedTest[] = [];
  const suites: string[] = [];
  let current: OpenTest | null = null;
  let depth = 0;
  let collecting: BoundedText | null = null;

  streamXml(xml, LABEL, 'robot', {
    open(name, tag) {
      if (current === null) {
        if (name === 'suite') suites.push(attribute(tag, 'name'));
        else if (name === 'test' && suites.length > 0) {
          current = { name: attribute(tag, 'name'), status: null, message: new BoundedText() };
          depth = 0;
        }
        return;
      }
      depth++;
      if (depth === 1 && name === 'status') {
        // The last status of the test's own is its status (writers put one).
        current.status = tag;
        current.message = new BoundedText();
        collecting = current.message;
      }
    },
    close(name) {
      if (current === null) {
        if (name === 'suite') suites.pop();
        return;
      }
      if (depth > 0) {
        if (depth === 1) collecting = null;
        depth--;
        return;
      }
      if (name === 'test') {
        tests.push(toTest(current, suites));
        current = null;
      }
    },
    text(text) {
      collecting?.add(text);
    },
  });
  return reportItems(tests, options.configuration);
}

function toTest(test: OpenTest, suites: string[]): ReportedTest {
  const longName = [...suites, test.name].join('.');
  if (test.status === null) throw notOfFormat(LABEL, `the test "${longName}" has no <status>`);
  const status = test.status;
  return {
    automationId: longName,
    title: test.name,
    section: suites.join('.') || null,
    status: statusOf(attribute(status, 'status'), STATUSES, (value) =>
      notOfFormat(LABEL, `the test "${longName}" has the status "${value}"`),
    ),
    durationMs: durationOf(status),
    message: test.message.value(),
    failureType: null,
    stackTrace: null,
  };
}

/**
 * RF 7 writes `elapsed` (seconds); RF 3–6 `starttime` and `endtime`, or `elapsedtime`
 * (milliseconds) when one of them is missing.
 */
function durationOf(status: SaxesTagPlain): number | null {
  const { elapsed, elapsedtime } = status.attributes;
  if (elapsed !== undefined) return secondsToMs(elapsed);
  const between = elapsedBetween(attribute(status, 'starttime'), attribute(status, 'endtime'));
  if (between !== null || elapsedtime === undefined || elapsedtime.trim() === '') return between;
  return millisecondsOf(Number(elapsedtime));
}

/** RF 3–6 timestamps: `20240131 12:00:00.123` (`N/A` when not run). */
const TIMESTAMP = /^(\d{4})(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/;

function timeOf(value: string): number | null {
  const match = TIMESTAMP.exec(value);
  if (!match) return null;
  const [, year, month, day, hours, minutes, seconds, fraction] = match;
  return Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hours),
    Number(minutes),
    Number(seconds),
    Number((fraction ?? '0').padEnd(3, '0')),
  );
}

export function elapsedBetween(start: string, end: string): number | null {
  const from = timeOf(start);
  const to = timeOf(end);
  return from === null || to === null ? null : millisecondsOf(to - from);
}
