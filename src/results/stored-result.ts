import type { ResultStatus } from './entities/result-status.js';

/** A stored result, as the API shows it. */
export interface StoredResult {
  id: string;
  test_run_id: string;
  test_case_id: string;
  status: ResultStatus;
  duration_ms: number | null;
  message: string | null;
  defects: string[];
  retries: number;
  flaky: boolean;
  executed_at: Date | null;
  created_at: Date;
  failure_type: string | null;
  stack_trace: string | null;
  /** Of a failed or blocked result (`failure-signature.ts`); else null. */
  signature: string | null;
  /** The environment it ran in (CONTRACT §13); null for none. */
  configuration: string | null;
  /** The earlier attempts of the same execution, oldest first. */
  attempts: AttemptResponse[];
}

/** An earlier attempt of an execution, as the API shows it (and `test_result.attempts` keeps it). */
export interface AttemptResponse {
  status: ResultStatus;
  duration_ms: number | null;
  message: string | null;
  failure_type: string | null;
  stack_trace: string | null;
}
