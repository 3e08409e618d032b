import { Module } from '@nestjs/common';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { TestRunLookupModule } from '../testruns/test-run-lookup.module.js';
import { CaseHistoryController } from './case-history.controller.js';
import { CaseHistoryInternalController } from './case-history.internal.controller.js';
import { CaseHistoryService } from './case-history.service.js';
import { ProjectGateSettingsInternalController } from './project-gate-settings.internal.controller.js';
import { ProjectGateSettingsService } from './project-gate-settings.service.js';
import { RunComparisonService } from './run-comparison.service.js';
import { RunFailuresService } from './run-failures.service.js';
import { RunInsightsController } from './run-insights.controller.js';
import { RunInsightsInternalController } from './run-insights.internal.controller.js';
import { RunVerdictsModule } from './run-verdicts/run-verdicts.module.js';
import { OverviewRepository } from './overview/overview.repository.js';
import { ProjectOverviewInternalController } from './overview/project-overview.internal.controller.js';
import { ProjectOverviewService } from './overview/project-overview.service.js';

/**
 * Results intelligence (CONTRACT §12): a case's history, a run's failures grouped by cause,
 * its comparison with a baseline and its quality gate, and a project's overview (`overview/`:
 * latest runs, trends, recurring failures), all computed in PostgreSQL. The gate
 * and the verdict in the run's lifecycle events are `RunVerdictsModule`'s.
 */
@Module({
  imports: [ProjectLookupModule, TestRunLookupModule, RunVerdictsModule],
  controllers: [
    CaseHistoryController,
    CaseHistoryInternalController,
    RunInsightsController,
    RunInsightsInternalController,
    ProjectGateSettingsInternalController,
    ProjectOverviewInternalController,
  ],
  providers: [
    CaseHistoryService,
    RunFailuresService,
    RunComparisonService,
    ProjectGateSettingsService,
    ProjectOverviewService,
    OverviewRepository,
  ],
})
export class InsightsModule {}
