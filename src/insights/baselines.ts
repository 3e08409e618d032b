import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { InsightsRepository } from './insights.repository.js';

/** A run's baseline (CONTRACT §12), always within the organization. */
@Injectable()
export class Baselines {
  constructor(
    private readonly repository: InsightsRepository,
    private readonly runs: TestRunLookup,
  ) {}

  /**
   * The baseline named in the query (400 naming `baseline_run_id` unless it is another run of
   * the same project in the organization), else the default one, or null.
   */
  async of(organizationId: string, run: TestRun, baselineRunId?: string): Promise<string | null> {
    if (baselineRunId === undefined) return this.repository.defaultBaseline(organizationId, run.id);
    const field = 'baseline_run_id';
    if (baselineRunId === run.id)
      throw ApiError.invalidField(field, 'baseline_run_id must name another run than this one');
    const baseline = await this.runs.findOrNull(organizationId, baselineRunId);
    if (!baseline)
      throw ApiError.invalidField(
        field,
        'baseline_run_id does not name a test run of this organization',
      );
    if (baseline.projectId !== run.projectId)
      throw ApiError.invalidField(field, 'baseline_run_id names a run of another project');
    return baseline.id;
  }
}
