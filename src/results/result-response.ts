import { isoOrNull } from '../common/serialization.js';
import type { ResultResponse } from './dto/result.dto.js';
import type { StoredResult } from './result-writer.js';

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
    created_at: result.created_at.toISOString(),
  };
}
