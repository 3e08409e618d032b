import { Module } from '@nestjs/common';
import { TestRunLookupModule } from '../../testruns/test-run-lookup.module.js';
import { Baselines } from '../baselines.js';
import { InsightsRepository } from '../insights.repository.js';
import { QualityGateService } from '../quality-gate.service.js';
import { RunVerdicts } from './run-verdicts.js';

/**
 * The verdict on a run for its lifecycle events, and the gate and baselines it is made of,
 * which the insights routes use too: a module of its own, so that the run's lifecycle
 * imports this, not the insights routes.
 */
@Module({
  imports: [TestRunLookupModule],
  providers: [InsightsRepository, Baselines, QualityGateService, RunVerdicts],
  exports: [InsightsRepository, Baselines, QualityGateService, RunVerdicts],
})
export class RunVerdictsModule {}
