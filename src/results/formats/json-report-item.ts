import { cutText } from '../../common/text.js';
import { reportAutomationId } from '../automation-id.js';
import type { ResultStatus } from '../entities/result-status.js';
import { RESULT_ITEM_FIELDS } from '../result-item-fields.js';
import {
  configurationOf,
  isRetry,
  MAX_KEPT_ATTEMPTS,
  type ResultAttempt,
  type ResultItem,
} from '../result-items.js';

const MAX_TITLE = RESULT_ITEM_FIELDS.title.maxLength;
const MAX_SECTION = RESULT_ITEM_FIELDS.section.maxLength;
const MAX_MESSAGE = RESULT_ITEM_FIELDS.message.maxLength;
const MAX_FAILURE_TYPE = RESULT_ITEM_FIELDS.failure_type.maxLength;
const MAX_STACK_TRACE = RESULT_ITEM_FIELDS.stack_trace.maxLength;
const MAX_CONFIGURATION = RESULT_ITEM_FIELDS.configuration.maxLength;
const MAX_RETRIES = RESULT_ITEM_FIELDS.retries.maximum;
const MAX_DURATION_MS = 2_147_483_647;

/** A failure as a report gives it; every part optional. */
export interface ReportFailure {
  message: string | null;
  failureType: string | null;
  stackTrace: string | null;
}

export const NO_FAILURE: ReportFailure = { message: null, failureType: null, stackTrace: null };

/** One attempt (the final one included) as a report parser reads it. */
export interface ReportAttempt extends ReportFailure {
  status: ResultStatus;
  durationMs: number | null;
}

/** A test as a report parser reads it, before the stored limits are applied. */
export interface ReportTest {
  /** The id as the format derives it (CONTRACT §14): a long one is shortened here (§13). */
  derivedId: string;
  title: string;
  section: string | null;
  final: ReportAttempt;
  /** The earlier attempts, oldest first (all of them: the oldest beyond 20 are dropped here). */
  earlier: ReportAttempt[];
  /** Earlier failed attempts the report counts but does not show (CTRF's bare `retries`). */
  unshownRetries?: number;
  /** The report's own configuration (a Playwright project), else null for the call's. */
  configuration: string | null;
}

/**
 * The result item of a report's test: its id shortened as §13 says, its texts cut to what is
 * stored (a report's megabytes of trace keep what a JSON item could carry), its attempts the
 * last 20 with every failed one counted in `retries`.
 */
export function jsonReportItem(test: ReportTest, callConfiguration: string | null): ResultItem {
  const { final, earlier } = test;
  let retries = test.unshownRetries ?? 0;
  for (const attempt of earlier) if (isRetry(attempt.status)) retries++;
  const kept = earlier.length > MAX_KEPT_ATTEMPTS ? earlier.slice(-MAX_KEPT_ATTEMPTS) : earlier;
  const derivedId = test.derivedId === '' ? 'unnamed' : test.derivedId;
  return {
    testCaseId: null,
    automationId: reportAutomationId(derivedId),
    title: cutText(test.title || derivedId, MAX_TITLE),
    section: test.section ? cutText(test.section, MAX_SECTION) : null,
    ...storedAttempt(final),
    defects: [],
    retries: Math.min(retries, MAX_RETRIES),
    executedAt: null,
    configuration: reportConfiguration(test.configuration) ?? callConfiguration,
    attempts: kept.map(storedAttempt),
  };
}

function storedAttempt(attempt: ReportAttempt): ResultAttempt {
  return {
    status: attempt.status,
    durationMs: attempt.durationMs,
    message: attempt.message ? cutText(attempt.message, MAX_MESSAGE) : null,
    failureType: attempt.failureType ? cutText(attempt.failureType, MAX_FAILURE_TYPE) : null,
    stackTrace: attempt.stackTrace ? cutText(attempt.stackTrace, MAX_STACK_TRACE) : null,
  };
}

/** A report's configuration name, cut to the stored length; blank is none. */
function reportConfiguration(name: string | null): string | null {
  if (name === null) return null;
  return configurationOf(cutText(name.trim(), MAX_CONFIGURATION)) ?? null;
}

/** Milliseconds as stored: a whole number, none when not a duration. */
export function durationMs(milliseconds: number | null): number | null {
  if (milliseconds === null || !(milliseconds >= 0)) return null;
  return Math.min(Math.round(milliseconds), MAX_DURATION_MS);
}

// Terminal colours: Playwright and its CTRF reporter colour their messages and snippets.
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Text without terminal colour codes. */
export function withoutAnsi(text: string): string {
  return text.includes('\u001b') ? text.replace(ANSI, '') : text;
}

/** The first line of a stack frame (`    at …`) in a JavaScript error's text. */
const FIRST_FRAME = /\n\s*at /;

/**
 * A JavaScript error as runners print it (`Error: message\n    at frame…`): the message is
 * what comes before the first frame, the stack trace the whole text.
 */
export function splitError(text: string | null): ReportFailure {
  if (text === null || text.trim() === '') return NO_FAILURE;
  const clean = withoutAnsi(text);
  const frame = FIRST_FRAME.exec(clean);
  if (frame === null) return { message: clean.trimEnd(), failureType: null, stackTrace: null };
  return {
    message: clean.slice(0, frame.index).trimEnd() || null,
    failureType: null,
    stackTrace: clean.trimEnd(),
  };
}

/** `parts` that are not empty, joined by ` › ` (how runners join a test's titles). */
export function joinTitles(parts: readonly string[]): string {
  return parts.filter((part) => part !== '').join(' › ');
}
