import { isoOrNull } from '../common/serialization.js';
import type { TestRunResponse } from './dto/test-run.dto.js';
import type { TestRun } from './entities/test-run.entity.js';

export function toTestRunResponse(run: TestRun): TestRunResponse {
  return {
    id: run.id,
    project_id: run.projectId,
    name: run.name,
    build_id: run.buildId,
    release_id: run.releaseId,
    status: run.status,
    source: run.source,
    counts: {
      total: run.total,
      passed: run.passed,
      failed: run.failed,
      blocked: run.blocked,
      skipped: run.skipped,
      retest: run.retest,
      untested: run.untested,
      flaky: run.flaky,
    },
    submitted_at: isoOrNull(run.submittedAt),
    completed_at: isoOrNull(run.completedAt),
    // Both columns are set together, at a completion; a run just inserted has neither loaded.
    gate: run.gateEvaluatedAt
      ? { passed: run.gatePassed === true, evaluated_at: run.gateEvaluatedAt.toISOString() }
      : null,
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
  };
}
