import { ApiError, type FieldError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { ListsInBodyAtMost } from '../common/http/body-lists.js';
import { isUuid } from '../common/ids.js';
import { cutText } from '../common/text.js';
import { parseTimestamp, TIMESTAMP_RULE } from '../common/validation.js';
import type { ResultStatus } from './entities/result-status.js';
import {
  ATTEMPT_FIELDS,
  RESULT_ITEM_FIELDS,
  type ResultItemFieldName,
} from './result-item-fields.js';

/** Results one JSON call may carry (CONTRACT §2: more is 413). */
export const MAX_RESULTS_PER_CALL = 5000;
/** The answer (413) to a call of more than `MAX_RESULTS_PER_CALL` results. */
export function tooManyResults(): ApiError {
  return new ApiError(
    413,
    ErrorCode.PayloadTooLarge,
    `At most ${MAX_RESULTS_PER_CALL} results per call; split the batch.`,
    { limit: MAX_RESULTS_PER_CALL },
  );
}

/** Earlier attempts a result keeps (CONTRACT §13): beyond, the oldest are dropped. */
export const MAX_KEPT_ATTEMPTS = 20;

/**
 * Objects and lists one full item may hold: itself, its `defects`, its `attempts` and the 20
 * attempts kept. An item may send more attempts (they are counted, then dropped), but a full
 * batch of them would be 5,000 × 1,000 objects: the bound is what a full batch keeps.
 */
const CONTAINERS_PER_ITEM = 3 + MAX_KEPT_ATTEMPTS;

/**
 * Objects and lists a report a runner wrote (CONTRACT §14) may hold, and items any of its lists:
 * a report is bounded by the body's 10 MiB, not by results per call (a 20,000-test Playwright
 * report holds about 250,000 objects). A million empty objects, the costliest a body can hold
 * per byte, take about 64 MB once parsed (72 MB with the rest of a 10 MiB body as strings),
 * within the 160 MB the memory budget holds for a 10 MiB JSON body (`bodyCost`).
 */
export const REPORT_LIST_BOUNDS = { items: 1_000_000, containers: 1_000_000 } as const;

/**
 * Marks a route whose JSON body carries result items in `results`: more than
 * `MAX_RESULTS_PER_CALL` are refused from the raw bytes, before the body is parsed, and so is
 * any other list as long, or more objects and lists than such a batch holds (the body, the
 * list, and each item's `CONTAINERS_PER_ITEM`: 115,002, about 10 MB parsed at most). With
 * `orReport`, the route also takes a runner's report (a JSON body whose `results` is not a
 * list), held to `REPORT_LIST_BOUNDS` instead.
 */
export const ResultsPerCallAtMost = (options: { orReport?: boolean } = {}) =>
  ListsInBodyAtMost({
    items: MAX_RESULTS_PER_CALL,
    containers: 2 + CONTAINERS_PER_ITEM * MAX_RESULTS_PER_CALL,
    tooManyItems: tooManyResults,
    ...(options.orReport ? { report: REPORT_LIST_BOUNDS } : {}),
  });

/** Errors listed in one 400 response; the first one is what matters most. */
const MAX_REPORTED_ERRORS = 50;

/** A validated result item, naming its case by id or by automation id. */
export interface ResultItem {
  testCaseId: string | null;
  automationId: string | null;
  /** For a case created from this item: its title and section. */
  title: string | null;
  section: string | null;
  status: ResultStatus;
  durationMs: number | null;
  message: string | null;
  /** The failure's kind (JUnit's `type`) and its stack trace (CONTRACT §12). */
  failureType: string | null;
  stackTrace: string | null;
  defects: string[];
  retries: number;
  executedAt: Date | null;
  /** The environment it ran in (CONTRACT §13): with the case, the result's slot; null for none. */
  configuration: string | null;
  /** The earlier attempts of the same execution, oldest first (CONTRACT §13). */
  attempts: ResultAttempt[];
}

/** One earlier attempt of an execution; the result's own fields are the final attempt's. */
export interface ResultAttempt {
  status: ResultStatus;
  durationMs: number | null;
  message: string | null;
  failureType: string | null;
  stackTrace: string | null;
}

const FIELDS = RESULT_ITEM_FIELDS;
const ITEM_FIELDS = new Set(Object.keys(FIELDS));
const ATTEMPT_FIELD_NAMES = new Set<string>(ATTEMPT_FIELDS);
const STATUSES: readonly string[] = FIELDS.status.enum ?? [];
const STATUS_RULE = STATUSES.join(', ');

/** A bounded string or integer field's check, made once from the field table. */
interface Bounds {
  name: ResultItemFieldName;
  min: number;
  max: number;
  /** A longer text is cut to `max`, not refused. */
  cut: boolean;
  /** What the error says after the field's path. */
  rule: string;
}

function textBounds(name: ResultItemFieldName): Bounds {
  const { minLength: min, maxLength: max, cut } = FIELDS[name];
  const rule = cut ? 'must be a string' : `must be a string of ${min} to ${max} characters`;
  return { name, min, max, cut, rule };
}

function integerBounds(name: ResultItemFieldName): Bounds {
  const { minimum: min, maximum: max } = FIELDS[name];
  return { name, min, max, cut: false, rule: `must be an integer from ${min} to ${max}` };
}

const AUTOMATION_ID = textBounds('automation_id');
const TITLE = textBounds('title');
const SECTION = textBounds('section');
const MESSAGE = textBounds('message');
const FAILURE_TYPE = textBounds('failure_type');
const STACK_TRACE = textBounds('stack_trace');
const DURATION_MS = integerBounds('duration_ms');
const RETRIES = integerBounds('retries');
const DEFECTS = FIELDS.defects;
const DEFECTS_RULE = `must be an array of at most ${DEFECTS.maxItems} defect references`;
const DEFECT_RULE = `must contain strings of ${DEFECTS.minLength} to ${DEFECTS.maxLength} characters`;
const DEFAULT_RETRIES = FIELDS.retries.default ?? 0;
const ATTEMPTS = FIELDS.attempts;
const ATTEMPTS_RULE = `must be an array of at most ${ATTEMPTS.maxItems} attempts`;
const MAX_CONFIGURATION = FIELDS.configuration.maxLength;
/** What a `configuration` must be, wherever it is given (an item, a body, a query). */
export const CONFIGURATION_RULE = `must be a string of at most ${MAX_CONFIGURATION} characters once trimmed (blank or null for none)`;

/**
 * A configuration as given (CONTRACT §13): trimmed, and none (null) when absent, null or blank
 * once trimmed; `undefined` when it is not one (not a string, or too long once trimmed).
 */
export function configurationOf(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed.length > MAX_CONFIGURATION) return undefined;
  return trimmed === '' ? null : trimmed;
}

/** The attempts of the items that send none (most): one list, never changed. */
const NO_ATTEMPTS: ResultAttempt[] = [];

/** Whether an attempt with this status counts in `retries`. */
export function isRetry(status: ResultStatus): boolean {
  return status === 'failed' || status === 'blocked';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates the `results` array of a JSON call by hand: it is the hottest path of the API
 * (up to 5,000 items a call), and every error names its exact place (`results[7].status`).
 * All or nothing: any error rejects the whole call. `configuration` is the call's, for the
 * items that name none.
 */
export function parseResultItems(
  value: unknown,
  configuration: string | null = null,
  field = 'results',
): ResultItem[] {
  if (!Array.isArray(value))
    throw ApiError.invalidField(field, `${field} must be an array of results`);
  if (value.length === 0)
    throw ApiError.invalidField(field, `${field} must contain at least 1 result`);
  if (value.length > MAX_RESULTS_PER_CALL) throw tooManyResults();
  const errors: FieldError[] = [];
  // Each checked item takes its raw object's place in the parsed body's own list: the raw one
  // can then be collected, so a batch is not held twice while it is stored (its strings are
  // shared anyway). On an error the list is thrown away with the request.
  const items = value as unknown[];
  for (let i = 0; i < items.length && errors.length < MAX_REPORTED_ERRORS; i++) {
    items[i] = parseItem(items[i], `${field}[${i}]`, configuration, errors);
  }
  if (errors.length > 0) throw ApiError.invalid(errors);
  return items as ResultItem[];
}

type Fail = (name: string, message: string) => null;

function failingAt(path: string, errors: FieldError[]): Fail {
  return (name, message) => {
    errors.push({ field: `${path}.${name}`, message: `${path}.${name} ${message}` });
    return null;
  };
}

function parseItem(
  raw: unknown,
  path: string,
  callConfiguration: string | null,
  errors: FieldError[],
): ResultItem | null {
  if (!isRecord(raw)) {
    errors.push({ field: path, message: `${path} must be an object` });
    return null;
  }
  const fail = failingAt(path, errors);
  for (const key of Object.keys(raw)) {
    if (!ITEM_FIELDS.has(key)) fail(key, 'is not a result field');
  }
  const present = (name: string) => raw[name] !== undefined && raw[name] !== null;

  let testCaseId: string | null = null;
  if (present('test_case_id')) {
    if (isUuid(raw.test_case_id)) testCaseId = raw.test_case_id.toLowerCase();
    else fail('test_case_id', 'must be a test case id (UUID)');
  }
  const automationId = text(raw, AUTOMATION_ID, fail);
  if (present('test_case_id') && present('automation_id')) {
    fail('automation_id', 'must not be given together with test_case_id');
  } else if (!present('test_case_id') && !present('automation_id')) {
    fail('test_case_id', 'or automation_id is required to name the test case');
  }

  const status = statusOf(raw, fail);
  const durationMs = integer(raw, DURATION_MS, fail);
  // Absent: undefined; holding an error: null (then retries are not compared with it).
  const attempts = present('attempts') ? attemptsOf(raw.attempts, path, errors) : undefined;
  const givenRetries = integer(raw, RETRIES, fail);
  if (attempts && givenRetries !== null && givenRetries !== attempts.retries) {
    fail(
      'retries',
      `must be ${attempts.retries}, the number of failed or blocked attempts in attempts`,
    );
  }
  const retries = givenRetries ?? attempts?.retries ?? DEFAULT_RETRIES;

  let configuration = configurationOf(raw.configuration);
  if (configuration === undefined) configuration = fail('configuration', CONFIGURATION_RULE);

  let defects: string[] = [];
  if (present('defects')) {
    const list = raw.defects;
    if (!Array.isArray(list) || list.length > DEFECTS.maxItems) {
      fail('defects', DEFECTS_RULE);
    } else if (!list.every(isDefect)) {
      fail('defects', DEFECT_RULE);
    } else {
      defects = list as string[];
    }
  }

  let executedAt: Date | null = null;
  if (present('executed_at')) {
    executedAt = parseTimestamp(raw.executed_at);
    if (executedAt === null) fail('executed_at', TIMESTAMP_RULE);
  }

  return {
    testCaseId,
    automationId,
    title: text(raw, TITLE, fail),
    section: text(raw, SECTION, fail),
    status,
    durationMs,
    message: text(raw, MESSAGE, fail),
    failureType: text(raw, FAILURE_TYPE, fail),
    stackTrace: text(raw, STACK_TRACE, fail),
    defects,
    retries,
    executedAt,
    configuration: configuration ?? callConfiguration,
    attempts: attempts?.kept ?? NO_ATTEMPTS,
  };
}

function statusOf(raw: Record<string, unknown>, fail: Fail): ResultStatus {
  const value = raw.status;
  if (value === undefined || value === null) fail('status', `is required (one of ${STATUS_RULE})`);
  else if (typeof value === 'string' && STATUSES.includes(value)) return value as ResultStatus;
  else fail('status', `must be one of ${STATUS_RULE}`);
  return 'untested';
}

/** An item's checked `attempts`: the kept ones, and how many of all sent count as retries. */
interface Attempts {
  kept: ResultAttempt[];
  retries: number;
}

/** Checks `attempts`; null when it holds an error (then `retries` is not compared). */
function attemptsOf(list: unknown, path: string, errors: FieldError[]): Attempts | null {
  const field = `${path}.attempts`;
  if (!Array.isArray(list) || list.length > ATTEMPTS.maxItems) {
    errors.push({ field, message: `${field} ${ATTEMPTS_RULE}` });
    return null;
  }
  const before = errors.length;
  const checked: ResultAttempt[] = [];
  let retries = 0;
  for (let j = 0; j < list.length && errors.length < MAX_REPORTED_ERRORS; j++) {
    const attempt = parseAttempt(list[j], `${field}[${j}]`, errors);
    if (attempt === null) continue;
    if (isRetry(attempt.status)) retries++;
    checked.push(attempt);
  }
  if (errors.length > before) return null;
  // Oldest first: the ones dropped are the first, and were counted above.
  return { kept: checked.slice(-MAX_KEPT_ATTEMPTS), retries };
}

function parseAttempt(raw: unknown, path: string, errors: FieldError[]): ResultAttempt | null {
  if (!isRecord(raw)) {
    errors.push({ field: path, message: `${path} must be an object` });
    return null;
  }
  const before = errors.length;
  const fail = failingAt(path, errors);
  for (const key of Object.keys(raw)) {
    if (!ATTEMPT_FIELD_NAMES.has(key)) fail(key, 'is not an attempt field');
  }
  const attempt: ResultAttempt = {
    status: statusOf(raw, fail),
    durationMs: integer(raw, DURATION_MS, fail),
    message: text(raw, MESSAGE, fail),
    failureType: text(raw, FAILURE_TYPE, fail),
    stackTrace: text(raw, STACK_TRACE, fail),
  };
  return errors.length > before ? null : attempt;
}

function isDefect(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    value.length >= DEFECTS.minLength &&
    value.length <= DEFECTS.maxLength
  );
}

function text(raw: Record<string, unknown>, bounds: Bounds, fail: Fail): string | null {
  const value = raw[bounds.name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length < bounds.min) return fail(bounds.name, bounds.rule);
  if (value.length > bounds.max) {
    return bounds.cut ? cutText(value, bounds.max) : fail(bounds.name, bounds.rule);
  }
  // (A NUL character or an unpaired surrogate, which PostgreSQL text cannot hold, is refused
  // for every request by `refuseBadText`.)
  return value;
}

function integer(raw: Record<string, unknown>, bounds: Bounds, fail: Fail): number | null {
  const value = raw[bounds.name];
  if (value === undefined || value === null) return null;
  const { min, max } = bounds;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    return fail(bounds.name, bounds.rule);
  }
  return value;
}
