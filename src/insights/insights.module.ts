import { Module } from '@nestjs/common';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { TestRunLookupModule } from '../testruns/test-run-lookup.module.js';
import { Baselines } from './baselines.js';
import { CaseHistoryController } from './case-history.controller.js';
import { CaseHistoryInternalController } from './case-history.internal.controller.js';
import { CaseHistoryService } from './case-history.service.js';
import { InsightsRepository } from './insights.repository.js';
import { ProjectGateSettingsInternalController } from './project-gate-settings.internal.controller.js';
import { ProjectGateSettingsService } from './project-gate-settings.service.js';
import { QualityGateService } from './quality-gate.service.js';
import { RunComparisonService } from './run-comparison.service.js';
import { RunFailuresService } from './run-failures.service.js';
import { RunInsightsController } from './run-insights.controller.js';
import { RunInsightsInternalController } from './run-insights.internal.controller.js';
import { RunVerdicts } from './run-verdicts.js';

/**
 * Results intelligence (CONTRACT §12): a case's history, a run's failures grouped by cause,
 * its comparison with a baseline and its quality gate, all computed in PostgreSQL.
 * `RunVerdicts` is exported for the run's lifecycle events.
 */
@Module({
  imports: [ProjectLookupModule, TestRunLookupModule],
  controllers: [
    CaseHistoryController,
    CaseHistoryInternalController,
    RunInsightsController,
    RunInsightsInternalController,
    ProjectGateSettingsInternalController,
  ],
  providers: [
    InsightsRepository,
    Baselines,
    CaseHistoryService,
    RunFailuresService,
    RunComparisonService,
    QualityGateService,
    ProjectGateSettingsService,
    RunVerdicts,
  ],
  exports: [RunVerdicts],
})
export class InsightsModule {}
