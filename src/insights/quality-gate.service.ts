import { Injectable } from '@nestjs/common';
import type { ComparisonSummary } from './dto/comparison.dto.js';
import type { GateResponse } from './dto/gate.dto.js';
import { gateRules } from './gate-rules.js';
import { InsightsRepository } from './insights.repository.js';
import { RunLookup } from './run-lookup.js';

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
    private readonly runs: RunLookup,
  ) {}

  async gate(organizationId: string, runId: string): Promise<GateResponse> {
    return (await this.judge(organizationId, runId)).gate;
  }

  async judge(organizationId: string, runId: string): Promise<RunJudgement> {
    const run = await this.runs.find(organizationId, runId);
    const baselineRunId = await this.runs.baseline(organizationId, run);
    const { unquarantined_new_failures, ...summary } = await this.repository.comparisonSummary(
      organizationId,
      run.id,
      baselineRunId,
    );
    const rules = gateRules({
      unquarantinedNewFailures: unquarantined_new_failures,
      missingTests: summary.missing_tests,
      passed: run.passed,
      executed: run.total - run.untested,
      minPassRate: run.gate_min_pass_rate,
      forbidMissingTests: run.gate_forbid_missing_tests,
    });
    return {
      baselineRunId,
      summary,
      gate: { test_run_id: run.id, passed: rules.every((rule) => rule.passed), rules },
    };
  }
}
