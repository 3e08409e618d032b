import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { InsightsRepository, type RunFacts } from './insights.repository.js';

/** Finds the runs a request names, and a run's baseline, always within the organization. */
@Injectable()
export class RunLookup {
  constructor(private readonly repository: InsightsRepository) {}

  /** The run if it is the organization's; 404 otherwise (no existence leaks). */
  async find(organizationId: string, runId: string): Promise<RunFacts> {
    const run = await this.repository.run(organizationId, runId);
    if (!run) throw ApiError.notFound('test_run');
    return run;
  }

  /**
   * The baseline named in the query (400 naming `baseline_run_id` unless it is another run of
   * the same project in the organization), else the default one (CONTRACT §12), or null.
   */
  async baseline(
    organizationId: string,
    run: RunFacts,
    baselineRunId?: string,
  ): Promise<string | null> {
    if (baselineRunId === undefined) return this.repository.defaultBaseline(organizationId, run.id);
    const field = 'baseline_run_id';
    if (baselineRunId === run.id)
      throw ApiError.invalidField(field, 'baseline_run_id must name another run than this one');
    const baseline = await this.repository.run(organizationId, baselineRunId);
    if (!baseline)
      throw ApiError.invalidField(
        field,
        'baseline_run_id does not name a test run of this organization',
      );
    if (baseline.project_id !== run.project_id)
      throw ApiError.invalidField(field, 'baseline_run_id names a run of another project');
    return baseline.id;
  }
}
