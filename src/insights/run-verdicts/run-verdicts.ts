import { Injectable } from '@nestjs/common';
import type { ComparisonSummary } from '../dto/comparison.dto.js';
import { organizationCaller } from '../../common/caller.js';
import { QualityGateService } from '../quality-gate.service.js';

/**
 * What `testrun.submitted.v1` and `testrun.completed.v1` add to the run (CONTRACT §12); a
 * completion's `gate` is also the verdict the run keeps, so the two are the same.
 */
export interface RunVerdict {
  comparison: { baseline_run_id: string | null; summary: ComparisonSummary };
  gate: { passed: boolean; evaluated_at: string };
}

/**
 * The verdict on a run for its lifecycle events: its comparison with the default baseline
 * and whether it passes the quality gate. Reads in the caller's transaction (through
 * `Transactions.manager`), so a status change can record it with the event it writes.
 */
@Injectable()
export class RunVerdicts {
  constructor(private readonly gate: QualityGateService) {}

  async of(organizationId: string, runId: string): Promise<RunVerdict> {
    const { baselineRunId, summary, gate } = await this.gate.judge(
      organizationCaller(organizationId),
      runId,
    );
    return {
      comparison: { baseline_run_id: baselineRunId, summary },
      gate: { passed: gate.passed, evaluated_at: gate.evaluated_at },
    };
  }
}
