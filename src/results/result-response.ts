import { isoOrNull } from '../common/serialization.js';
import type { ResultResponse } from './dto/result.dto.js';
import type { StoredResult } from './stored-result.js';

/**
 * The results of one batch share one `created_at` (their transaction's time): its text is
 * made once, not once per result (half the cost of a 1,000-result response).
 */
let lastCreatedAt = Number.NaN;
let lastCreatedAtText = '';

function createdAtText(date: Date): string {
  const time = date.getTime();
  if (time !== lastCreatedAt) {
    lastCreatedAtText = date.toISOString();
    lastCreatedAt = time;
  }
  return lastCreatedAtText;
}

export function toResultResponse(result: StoredResult): ResultResponse {
  return {
    id: result.id,
    test_run_id: result.test_run_id,
    test_case_id: result.test_case_id,
    status: result.status,
    duration_ms: result.duration_ms,
    message: result.message,
    defects: result.defects,
    retries: result.retries,
    flaky: result.flaky,
    executed_at: isoOrNull(result.executed_at),
    created_at: createdAtText(result.created_at),
    failure_type: result.failure_type,
    stack_trace: result.stack_trace,
    signature: result.signature,
    configuration: result.configuration,
    attempts: result.attempts,
  };
}
