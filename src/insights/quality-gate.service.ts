import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { Baselines } from './baselines.js';
import type { ComparisonSummary } from './dto/comparison.dto.js';
import type { GateResponse } from './dto/gate.dto.js';
import { gateRules } from './gate-rules.js';
import { InsightsRepository } from './insights.repository.js';

/** A run's gate and what it was judged against: for the gate route and the run's events. */
export interface RunJudgement {
  baselineRunId: string | null;
  summary: ComparisonSummary;
  gate: GateResponse;
}

/** The quality gate (CONTRACT §12): the run against its default baseline and its project. */
@Injectable()
export class QualityGateService {
  constructor(
    private readonly repository: InsightsRepository,
    private readonly runs: TestRunLookup,
    private readonly baselines: Baselines,
  ) {}

  async gate(caller: Caller, runId: string): Promise<GateResponse> {
    return (await this.judge(caller, runId)).gate;
  }

  async judge(caller: Caller, runId: string): Promise<RunJudgement> {
    const run = await this.runs.find(caller, runId);
    const { organizationId } = run;
    const baselineRunId = await this.baselines.of(organizationId, run);
    const { unquarantined_new_failures, ...summary } = await this.repository.comparisonSummary(
      organizationId,
      run.id,
      baselineRunId,
    );
    const settings = await this.repository.gateSettingsOf(organizationId, run.projectId);
    const rules = gateRules({
      unquarantinedNewFailures: unquarantined_new_failures,
      missingTests: summary.missing_tests,
      passed: run.passed,
      executed: run.total - run.untested,
      minPassRate: settings.gate_min_pass_rate,
      forbidMissingTests: settings.gate_forbid_missing_tests,
      minTests: settings.gate_min_tests,
    });
    return {
      baselineRunId,
      summary,
      gate: {
        test_run_id: run.id,
        passed: rules.every((rule) => rule.passed),
        rules,
        evaluated_at: new Date().toISOString(),
      },
    };
  }
}
