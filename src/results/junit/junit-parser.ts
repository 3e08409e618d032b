import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ApiError } from '../../common/errors/api-error.js';
import { cutText } from '../../common/text.js';
import { RESULT_ITEM_FIELDS } from '../result-item-fields.js';
import type { ResultItem } from '../result-items.js';

/** Longest failure message kept per result (reports can carry megabytes of stack traces). */
const MAX_MESSAGE = RESULT_ITEM_FIELDS.message.maxLength;
/** Longest stack trace kept (CONTRACT §12); a longer one is cut, as JSON items' are. */
const MAX_STACK_TRACE = RESULT_ITEM_FIELDS.stack_trace.maxLength;
/**
 * A failure's text is collected up to one character past the longest kept, so that cutting it
 * (`cutText`) sees whether its last kept character is half of a pair.
 */
const MAX_COLLECTED = Math.max(MAX_MESSAGE, MAX_STACK_TRACE) + 1;
const MAX_ID = 1000;
const MAX_FAILURE_TYPE = RESULT_ITEM_FIELDS.failure_type.maxLength;

const FAILURE = new Set(['failure', 'error']);
/** Surefire's re-run records: a passed test with flaky ones is flaky; reruns are retries. */
const RETRY = new Set(['flakyFailure', 'flakyError', 'rerunFailure', 'rerunError']);

interface OpenCase {
  name: string;
  classname: string;
  time: string | undefined;
  failed: boolean;
  skipped: boolean;
  retries: number;
  message: string | null;
  /** The `type` attribute of the first <failure>/<error>. */
  failureType: string | null;
  /**
   * Text inside the first <failure>/<error>: its message, or its stack trace when it has a
   * message attribute.
   */
  collecting: boolean;
  text: string;
}

/**
 * Turns a JUnit XML report into result items, streaming through the document once (linear
 * in its size). Accepts what Jest, Mocha, pytest (xunit1/xunit2), Playwright, Maven Surefire
 * and go-junit-report write: nested suites, missing classnames, properties, system-out,
 * CDATA and entities. Malformed XML is a 400 naming `body` with the parser's line and column.
 */
export function parseJunitReport(xml: string): ResultItem[] {
  const parser = new SaxesParser<{ xmlns: false; position: true }>({
    xmlns: false,
    position: true,
  });
  const items: ResultItem[] = [];
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
      if (tag.name === 'testcase') {
        current = {
          name: attribute(tag, 'name'),
          classname: attribute(tag, 'classname'),
          time: tag.attributes.time,
          failed: false,
          skipped: false,
          retries: 0,
          message: null,
          failureType: null,
          collecting: false,
          text: '',
        };
        depthInCase = 0;
      }
      return;
    }
    depthInCase++;
    if (depthInCase !== 1) return;
    if (FAILURE.has(tag.name)) {
      if (!current.failed) {
        current.failed = true;
        current.failureType = attribute(tag, 'type') || null;
        const message = tag.attributes.message;
        if (message) current.message = message;
        current.collecting = true;
      }
    } else if (tag.name === 'skipped') {
      current.skipped = true;
      current.message ??= tag.attributes.message || null;
    } else if (RETRY.has(tag.name)) {
      current.retries++;
    }
  });
  // Bounded: a report's megabytes of trace keep only what is stored. Leading whitespace (the
  // indentation before a trace) is not collected, so it does not take the room of the trace.
  const onText = (text: string) => {
    if (!current?.collecting) return;
    const room = MAX_COLLECTED - current.text.length;
    if (room <= 0) return;
    const kept = current.text === '' ? text.trimStart() : text;
    current.text += kept.length > room ? kept.slice(0, room) : kept;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    if (current === null) return;
    if (depthInCase > 0) {
      if (depthInCase === 1 && FAILURE.has(tag.name)) current.collecting = false;
      depthInCase--;
      return;
    }
    if (tag.name === 'testcase') {
      items.push(toItem(current));
      current = null;
    }
  });

  parser.write(xml).close();
  if (failure) throw malformed(failure as Error);
  if (!sawRoot)
    throw ApiError.invalidField('body', 'The body is not a JUnit XML report: it is empty.');
  return items;
}

function attribute(tag: SaxesTagPlain, name: string): string {
  return (tag.attributes[name] ?? '').trim();
}

function toItem(testCase: OpenCase): ResultItem {
  const automationId =
    (testCase.classname ? `${testCase.classname}.${testCase.name}` : testCase.name) || 'unnamed';
  const status = testCase.failed ? 'failed' : testCase.skipped ? 'skipped' : 'passed';
  // The element's text is its message without a message attribute, else its stack trace.
  const text = testCase.text.trimEnd() || null;
  const message = testCase.message ?? text;
  const stackTrace = testCase.message === null ? null : text;
  return {
    testCaseId: null,
    automationId: cutText(automationId, MAX_ID),
    title: cutText(testCase.name || automationId, MAX_ID),
    section: testCase.classname ? cutText(testCase.classname, MAX_ID) : null,
    status,
    durationMs: durationOf(testCase.time),
    message: message ? cutText(message, MAX_MESSAGE) : null,
    failureType: testCase.failureType ? cutText(testCase.failureType, MAX_FAILURE_TYPE) : null,
    stackTrace: stackTrace ? cutText(stackTrace, MAX_STACK_TRACE) : null,
    defects: [],
    retries: testCase.retries,
    executedAt: null,
    configuration: null,
    attempts: [],
  };
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
