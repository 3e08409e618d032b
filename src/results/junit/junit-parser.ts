import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ApiError } from '../../common/errors/api-error.js';
import { cutText } from '../../common/text.js';
import { reportAutomationId } from '../automation-id.js';
import { mergeReruns } from '../report-reruns.js';
import { RESULT_ITEM_FIELDS } from '../result-item-fields.js';
import { MAX_KEPT_ATTEMPTS, type ResultAttempt, type ResultItem } from '../result-items.js';

/** Longest failure message kept per result (reports can carry megabytes of stack traces). */
const MAX_MESSAGE = RESULT_ITEM_FIELDS.message.maxLength;
/** Longest stack trace kept (CONTRACT §12); a longer one is cut, as JSON items' are. */
const MAX_STACK_TRACE = RESULT_ITEM_FIELDS.stack_trace.maxLength;
/**
 * A failure's text is collected up to one character past the longest kept, so that cutting it
 * (`cutText`) sees whether its last kept character is half of a pair.
 */
const MAX_COLLECTED = Math.max(MAX_MESSAGE, MAX_STACK_TRACE) + 1;
const MAX_TITLE = RESULT_ITEM_FIELDS.title.maxLength;
const MAX_SECTION = RESULT_ITEM_FIELDS.section.maxLength;
const MAX_FAILURE_TYPE = RESULT_ITEM_FIELDS.failure_type.maxLength;
const MAX_CONFIGURATION = RESULT_ITEM_FIELDS.configuration.maxLength;

/** A test's failures: several in one <testcase> are Vitest's retries, the last one final. */
const FAILURE = new Set(['failure', 'error']);
/** Surefire's re-run records: failed attempts before the final status. */
const RETRY = new Set(['flakyFailure', 'flakyError', 'rerunFailure', 'rerunError']);
/** Where Surefire puts a re-run record's stack trace: a child, not the record's text. */
const STACK_TRACE_CHILD = 'stackTrace';

/** One failed attempt as the report writes it: a <failure>, <error> or re-run record. */
interface FailureRecord {
  /** Its `message` attribute, or null when none (or empty). */
  messageAttribute: string | null;
  type: string | null;
  time: string | undefined;
  /** Its text: its message, or its stack trace when it has a message attribute. */
  text: string;
}

interface OpenCase {
  name: string;
  classname: string;
  time: string | undefined;
  /** The nearest enclosing <testsuite>'s `hostname` (a Playwright project's name), or ''. */
  hostname: string;
  skipped: boolean;
  skipMessage: string | null;
  /** The last failed attempts in document order, the final failure among them if kept. */
  records: FailureRecord[];
  /** Failed attempts in all, kept or not. */
  recordCount: number;
  /** The last <failure>/<error>: the final attempt. */
  lastFailure: FailureRecord | null;
  /** The record whose element is open, and whether it is a re-run record. */
  openRecord: FailureRecord | null;
  openRetry: boolean;
  /** The record whose text is being read (its own, or its <stackTrace> child's). */
  collecting: FailureRecord | null;
}

/**
 * Turns a JUnit XML report into result items, streaming through the document once (linear
 * in its size). Accepts what Jest, Mocha, pytest (xunit1/xunit2), Playwright, Maven Surefire
 * and go-junit-report write: nested suites, missing classnames, properties, system-out,
 * CDATA and entities. Malformed XML is a 400 naming `body` with the parser's line and column.
 *
 * Configurations and attempts follow CONTRACT §13: failures and re-run records of a testcase
 * are its attempts; testsuite hostnames are the configurations when they tell the same test
 * apart, else `configuration` (the call's) is; then a test appearing again with the same
 * configuration is a rerun of one execution, merged into one result.
 */
export function parseJunitReport(xml: string, configuration: string | null = null): ResultItem[] {
  const parser = new SaxesParser<{ xmlns: false; position: true }>({
    xmlns: false,
    position: true,
  });
  const items: ResultItem[] = [];
  /** Each item's testsuite hostname, which decides its configuration once all are read. */
  const itemHostnames: string[] = [];
  let anyHostname = false;
  /** The `hostname` of each open <testsuite>, an inner one without its own taking the outer's. */
  const hostnames: string[] = [];
  let current: OpenCase | null = null;
  let depthInCase = 0;
  let sawRoot = false;
  let failure: Error | null = null;

  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (!sawRoot) {
      sawRoot = true;
      if (tag.name !== 'testsuites' && tag.name !== 'testsuite') {
        failure ??= new Error(`the root element is <${tag.name}>, not <testsuites> or <testsuite>`);
      }
    }
    if (current === null) {
      if (tag.name === 'testsuite') {
        const hostname = attribute(tag, 'hostname') || (hostnames.at(-1) ?? '');
        if (hostname !== '') anyHostname = true;
        hostnames.push(hostname);
      } else if (tag.name === 'testcase') {
        current = openCase(tag, hostnames.at(-1) ?? '');
        depthInCase = 0;
      }
      return;
    }
    depthInCase++;
    if (depthInCase === 2 && current.openRetry) {
      // A re-run record's trace is its <stackTrace> child; its <system-out> is not.
      current.collecting = tag.name === STACK_TRACE_CHILD ? current.openRecord : null;
    }
    if (depthInCase !== 1) return;
    const isFailure = FAILURE.has(tag.name);
    if (isFailure || RETRY.has(tag.name)) {
      const record = readRecord(tag);
      addRecord(current, record);
      if (isFailure) current.lastFailure = record;
      current.openRecord = record;
      current.openRetry = !isFailure;
      current.collecting = record;
    } else if (tag.name === 'skipped') {
      current.skipped = true;
      current.skipMessage ??= tag.attributes.message || null;
    }
  });
  // Bounded: a report's megabytes of trace keep only what is stored. Leading whitespace (the
  // indentation before a trace) is not collected, so it does not take the room of the trace.
  const onText = (text: string) => {
    const record = current?.collecting;
    if (!record) return;
    const room = MAX_COLLECTED - record.text.length;
    if (room <= 0) return;
    const kept = record.text === '' ? text.trimStart() : text;
    record.text += kept.length > room ? kept.slice(0, room) : kept;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    if (current === null) {
      if (tag.name === 'testsuite') hostnames.pop();
      return;
    }
    if (depthInCase > 0) {
      if (depthInCase === 1) {
        current.openRecord = null;
        current.openRetry = false;
        current.collecting = null;
      } else if (depthInCase === 2 && current.openRetry) {
        current.collecting = current.openRecord;
      }
      depthInCase--;
      return;
    }
    if (tag.name === 'testcase') {
      items.push(toItem(current, configuration));
      itemHostnames.push(current.hostname);
      current = null;
    }
  });

  parser.write(xml).close();
  if (failure) throw malformed(failure as Error);
  if (!sawRoot)
    throw ApiError.invalidField('body', 'The body is not a JUnit XML report: it is empty.');
  if (anyHostname) withHostnames(items, itemHostnames);
  return mergeReruns(items);
}

function attribute(tag: SaxesTagPlain, name: string): string {
  return (tag.attributes[name] ?? '').trim();
}

function openCase(tag: SaxesTagPlain, hostname: string): OpenCase {
  return {
    name: attribute(tag, 'name'),
    classname: attribute(tag, 'classname'),
    time: tag.attributes.time,
    hostname,
    skipped: false,
    skipMessage: null,
    records: [],
    recordCount: 0,
    lastFailure: null,
    openRecord: null,
    openRetry: false,
    collecting: null,
  };
}

function readRecord(tag: SaxesTagPlain): FailureRecord {
  return {
    messageAttribute: tag.attributes.message || null,
    type: attribute(tag, 'type') || null,
    time: tag.attributes.time,
    text: '',
  };
}

/**
 * Keeps the last records only: one more than the attempts kept, for the final failure. (When
 * more records follow the final failure, it is held in `lastFailure` all the same.)
 */
function addRecord(testCase: OpenCase, record: FailureRecord): void {
  testCase.recordCount++;
  testCase.records.push(record);
  if (testCase.records.length > MAX_KEPT_ATTEMPTS + 1) testCase.records.shift();
}

/** A record's message and stack trace: its text is the message without a message attribute. */
function detailOf(record: FailureRecord) {
  const text = record.text.trimEnd() || null;
  const message = record.messageAttribute ?? text;
  const stackTrace = record.messageAttribute === null ? null : text;
  return {
    message: message ? cutText(message, MAX_MESSAGE) : null,
    failureType: record.type ? cutText(record.type, MAX_FAILURE_TYPE) : null,
    stackTrace: stackTrace ? cutText(stackTrace, MAX_STACK_TRACE) : null,
  };
}

function toItem(testCase: OpenCase, configuration: string | null): ResultItem {
  const automationId =
    (testCase.classname ? `${testCase.classname}.${testCase.name}` : testCase.name) || 'unnamed';
  const final = testCase.lastFailure;
  const status = final ? 'failed' : testCase.skipped ? 'skipped' : 'passed';
  const detail = final
    ? detailOf(final)
    : { message: testCase.skipMessage, failureType: null, stackTrace: null };
  return {
    testCaseId: null,
    automationId: reportAutomationId(automationId),
    title: cutText(testCase.name || automationId, MAX_TITLE),
    section: testCase.classname ? cutText(testCase.classname, MAX_SECTION) : null,
    status,
    durationMs: durationOf(testCase.time),
    message: detail.message ? cutText(detail.message, MAX_MESSAGE) : null,
    failureType: detail.failureType,
    stackTrace: detail.stackTrace,
    defects: [],
    // Every record is a failed attempt; the final failure is not an earlier one.
    retries: testCase.recordCount - (final ? 1 : 0),
    executedAt: null,
    configuration,
    attempts: testCase.records.length === 0 ? [] : earlierAttempts(testCase.records, final),
  };
}

/** The failed attempts before the final one, the last ones kept. */
function earlierAttempts(records: FailureRecord[], final: FailureRecord | null): ResultAttempt[] {
  const earlier = final ? records.filter((record) => record !== final) : records;
  return earlier.slice(-MAX_KEPT_ATTEMPTS).map((record) => ({
    status: 'failed',
    durationMs: durationOf(record.time),
    ...detailOf(record),
  }));
}

/**
 * Each result's configuration (CONTRACT §13): its testsuite's hostname when the report's
 * hostnames tell the same test apart (it appears under two of them, as Playwright writes a
 * project's name there), for every result of the report that has one; else the call's, which
 * the items carry already. Hostnames name a machine in every other runner, and are ignored then.
 */
function withHostnames(items: ResultItem[], hostnames: string[]): void {
  if (!hostnamesTellApart(items, hostnames)) return;
  for (let i = 0; i < items.length; i++) {
    const own = hostnames[i] === '' ? '' : cutText(hostnames[i], MAX_CONFIGURATION).trim();
    if (own !== '') items[i].configuration = own;
  }
}

/** Whether a test appears under two distinct testsuite hostnames. */
function hostnamesTellApart(items: ResultItem[], hostnames: string[]): boolean {
  const firstHostname = new Map<string, string>();
  for (let i = 0; i < items.length; i++) {
    const hostname = hostnames[i];
    if (hostname === '') continue;
    const id = items[i].automationId ?? '';
    const first = firstHostname.get(id);
    if (first === undefined) firstHostname.set(id, hostname);
    else if (first !== hostname) return true;
  }
  return false;
}

/** `time` is seconds, sometimes with a thousands separator (Surefire in some locales). */
export function durationOf(time: string | undefined): number | null {
  if (time === undefined) return null;
  const seconds = Number(time.includes(',') ? time.replace(/,/g, '') : time);
  if (!Number.isFinite(seconds) || seconds < 0) return null;
  return Math.min(Math.round(seconds * 1000), 2_147_483_647);
}

/** saxes reports "line:column: message". */
function malformed(error: Error): ApiError {
  const match = /^(\d+):(\d+): (.*)$/s.exec(error.message);
  const where = match ? ` at line ${match[1]}, column ${match[2]}` : '';
  const what = match ? match[3] : error.message;
  return ApiError.invalidField('body', `The body is not well-formed JUnit XML${where}: ${what}`);
}
