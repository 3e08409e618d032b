import { cutText } from '../../common/text.js';
import type { ResultStatus } from '../entities/result-status.js';
import { reportAutomationId } from '../automation-id.js';
import { mergeReruns } from '../report-reruns.js';
import { RESULT_ITEM_FIELDS } from '../result-item-fields.js';
import type { ResultItem } from '../result-items.js';

/** One test's result as a report format gives it, before the limits of a result apply. */
export interface ReportedTest {
  /** The automation id the format derives (CONTRACT §14), before long ids are shortened. */
  automationId: string;
  /** For a new case: the test's own name, and its class or suite. */
  title: string;
  section: string | null;
  status: ResultStatus;
  durationMs: number | null;
  message: string | null;
  failureType: string | null;
  stackTrace: string | null;
}

const cut = (value: string | null, max: number): string | null =>
  value ? cutText(value, max) : null;

/** A reported test as a result item: every text within its field's limit. */
export function reportItem(test: ReportedTest, configuration: string | null): ResultItem {
  const automationId = test.automationId || 'unnamed';
  return {
    testCaseId: null,
    automationId: reportAutomationId(automationId),
    title: cutText(test.title || automationId, RESULT_ITEM_FIELDS.title.maxLength),
    section: cut(test.section, RESULT_ITEM_FIELDS.section.maxLength),
    status: test.status,
    durationMs: test.durationMs,
    message: cut(test.message, RESULT_ITEM_FIELDS.message.maxLength),
    failureType: cut(test.failureType, RESULT_ITEM_FIELDS.failure_type.maxLength),
    stackTrace: cut(test.stackTrace, RESULT_ITEM_FIELDS.stack_trace.maxLength),
    defects: [],
    retries: 0,
    executedAt: null,
    configuration,
    attempts: [],
  };
}

/**
 * The result items of a report's tests (CONTRACT §13, §14): these formats name no
 * configuration, so every result takes the call's; a test that appears again is a rerun of
 * one execution, merged into one result with attempts.
 */
export function reportItems(tests: ReportedTest[], configuration: string | null): ResultItem[] {
  return mergeReruns(tests.map((test) => reportItem(test, configuration)));
}

/** Seconds as a decimal (NUnit, xUnit, Robot 7) in milliseconds; null when not a duration. */
export function secondsToMs(seconds: string | undefined): number | null {
  if (seconds === undefined || seconds.trim() === '') return null;
  return millisecondsOf(Number(seconds) * 1000);
}

/** A non-negative duration within a result's range, else null. */
export function millisecondsOf(ms: number): number | null {
  if (!Number.isFinite(ms) || ms < 0) return null;
  return Math.min(Math.round(ms), 2_147_483_647);
}

/**
 * A status the format names, mapped by `statuses` (CONTRACT §14); a value the format does not
 * allow is refused through `refuse` rather than guessed.
 */
export function statusOf(
  value: string,
  statuses: ReadonlyMap<string, ResultStatus>,
  refuse: (value: string) => Error,
): ResultStatus {
  const status = statuses.get(value);
  if (status === undefined) throw refuse(value);
  return status;
}
