import { ApiError, type FieldError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { isUuid } from '../common/ids.js';
import { parseTimestamp, TIMESTAMP_RULE } from '../common/validation.js';
import { RESULT_STATUSES, type ResultStatus } from './entities/result-status.js';

/** Results one JSON call may carry (CONTRACT §2: more is 413). */
export const MAX_RESULTS_PER_CALL = 5000;
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
  defects: string[];
  retries: number;
  executedAt: Date | null;
}

const ITEM_FIELDS = new Set([
  'test_case_id',
  'automation_id',
  'title',
  'section',
  'status',
  'duration_ms',
  'message',
  'defects',
  'retries',
  'executed_at',
]);
const STATUSES: readonly string[] = RESULT_STATUSES;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates the `results` array of a JSON call by hand: it is the hottest path of the API
 * (up to 5,000 items a call), and every error names its exact place (`results[7].status`).
 * All or nothing: any error rejects the whole call.
 */
export function parseResultItems(value: unknown, field = 'results'): ResultItem[] {
  if (!Array.isArray(value))
    throw ApiError.invalidField(field, `${field} must be an array of results`);
  if (value.length === 0)
    throw ApiError.invalidField(field, `${field} must contain at least 1 result`);
  if (value.length > MAX_RESULTS_PER_CALL) {
    throw new ApiError(
      413,
      ErrorCode.PayloadTooLarge,
      `At most ${MAX_RESULTS_PER_CALL} results per call; split the batch.`,
      { limit: MAX_RESULTS_PER_CALL },
    );
  }
  const errors: FieldError[] = [];
  const items: ResultItem[] = new Array(value.length);
  for (let i = 0; i < value.length && errors.length < MAX_REPORTED_ERRORS; i++) {
    items[i] = parseItem(value[i], `${field}[${i}]`, errors) as ResultItem;
  }
  if (errors.length > 0) throw ApiError.invalid(errors);
  return items;
}

function parseItem(raw: unknown, path: string, errors: FieldError[]): ResultItem | null {
  if (!isRecord(raw)) {
    errors.push({ field: path, message: `${path} must be an object` });
    return null;
  }
  const fail = (name: string, message: string) => {
    errors.push({ field: `${path}.${name}`, message: `${path}.${name} ${message}` });
    return null;
  };
  for (const key of Object.keys(raw)) {
    if (!ITEM_FIELDS.has(key)) fail(key, 'is not a result field');
  }
  const present = (name: string) => raw[name] !== undefined && raw[name] !== null;

  let testCaseId: string | null = null;
  if (present('test_case_id')) {
    if (isUuid(raw.test_case_id)) testCaseId = raw.test_case_id.toLowerCase();
    else fail('test_case_id', 'must be a test case id (UUID)');
  }
  const automationId = text(raw, 'automation_id', 1, 1000, fail);
  if (present('test_case_id') && present('automation_id')) {
    fail('automation_id', 'must not be given together with test_case_id');
  } else if (!present('test_case_id') && !present('automation_id')) {
    fail('test_case_id', 'or automation_id is required to name the test case');
  }

  let status: ResultStatus = 'untested';
  if (!present('status')) fail('status', `is required (one of ${RESULT_STATUSES.join(', ')})`);
  else if (typeof raw.status === 'string' && STATUSES.includes(raw.status))
    status = raw.status as ResultStatus;
  else fail('status', `must be one of ${RESULT_STATUSES.join(', ')}`);

  const durationMs = integer(raw, 'duration_ms', 0, 2_147_483_647, fail);
  const retries = integer(raw, 'retries', 0, 1000, fail) ?? 0;

  let defects: string[] = [];
  if (present('defects')) {
    const list = raw.defects;
    if (!Array.isArray(list) || list.length > 100) {
      fail('defects', 'must be an array of at most 100 defect references');
    } else if (!list.every((d) => typeof d === 'string' && d.length >= 1 && d.length <= 255)) {
      fail('defects', 'must contain strings of 1 to 255 characters');
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
    title: text(raw, 'title', 1, 1000, fail),
    section: text(raw, 'section', 0, 1000, fail),
    status,
    durationMs,
    message: text(raw, 'message', 0, 65_535, fail),
    defects,
    retries,
    executedAt,
  };
}

function text(
  raw: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  fail: (name: string, message: string) => null,
): string | null {
  const value = raw[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    return fail(name, `must be a string of ${min} to ${max} characters`);
  }
  // (A NUL character or an unpaired surrogate, which PostgreSQL text cannot hold, is refused
  // for every request by `refuseBadText`.)
  return value;
}

function integer(
  raw: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  fail: (name: string, message: string) => null,
): number | null {
  const value = raw[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    return fail(name, `must be an integer from ${min} to ${max}`);
  }
  return value;
}
