import type { MigrationInterface } from 'typeorm';
import { CreateOrganizationsAndApiKeys1795302842865 } from './1795302842865-CreateOrganizationsAndApiKeys.js';
import { CreateProjectsReleasesBuildsIdempotency1795303622861 } from './1795303622861-CreateProjectsReleasesBuildsIdempotency.js';
import { MillisecondTimestamps1795303906157 } from './1795303906157-MillisecondTimestamps.js';
import { CountBuildsPerOrganization1795304119576 } from './1795304119576-CountBuildsPerOrganization.js';
import { CreateTestRunsAndResults1795304583665 } from './1795304583665-CreateTestRunsAndResults.js';
import { TrackCurrentResultsPerCase1795305149808 } from './1795305149808-TrackCurrentResultsPerCase.js';
import { RememberReplacedResults1795305341577 } from './1795305341577-RememberReplacedResults.js';
import { CreateOutboxAndWebhooks1795305625273 } from './1795305625273-CreateOutboxAndWebhooks.js';
import { ResultsReferenceTheirRunCase1795311301458 } from './1795311301458-ResultsReferenceTheirRunCase.js';
import { ReferencesCheckedPerStatement1795317045732 } from './1795317045732-ReferencesCheckedPerStatement.js';
import { IdempotencyClaimsCarryATokenAndNoSecrets1795469263941 } from './1795469263941-IdempotencyClaimsCarryATokenAndNoSecrets.js';
import { ResultsIntelligence1795474562658 } from './1795474562658-ResultsIntelligence.js';
import { KeepCaseOutcomes1795476498795 } from './1795476498795-KeepCaseOutcomes.js';
import { CreateConsoleSessions1795484634867 } from './1795484634867-CreateConsoleSessions.js';
import { ConsoleSessionsRememberEmail1795490000000 } from './1795490000000-ConsoleSessionsRememberEmail.js';
import { ProjectKeysIgnoreCase1795500000000 } from './1795500000000-ProjectKeysIgnoreCase.js';
import { KeepRunVerdicts1795510000000 } from './1795510000000-KeepRunVerdicts.js';
import { ProjectRetention1795810000000 } from './1795810000000-ProjectRetention.js';
import { ResultSlotsAndAttempts1795706444052 } from './1795706444052-ResultSlotsAndAttempts.js';
import { CurrentResultsKeepTheirTime1795800000000 } from './1795800000000-CurrentResultsKeepTheirTime.js';
import { ProjectDefectUrlTemplate1795820000000 } from './1795820000000-ProjectDefectUrlTemplate.js';
import { CreateAttachments1795830000000 } from './1795830000000-CreateAttachments.js';
import { OverviewIndexes1795850000000 } from './1795850000000-OverviewIndexes.js';
import { RunsListContext1795860000000 } from './1795860000000-RunsListContext.js';
import { KeepReleaseSlots1795870000000 } from './1795870000000-KeepReleaseSlots.js';
import { PartitionResultsByRunMonth1795880000000 } from './1795880000000-PartitionResultsByRunMonth.js';
import { CaseOutcomesFollowTheirCase1795890000000 } from './1795890000000-CaseOutcomesFollowTheirCase.js';

/** Every migration in the order it runs; the app and the migration CLI share this list. */
export const MIGRATIONS: Array<new () => MigrationInterface> = [
  CreateOrganizationsAndApiKeys1795302842865,
  CreateProjectsReleasesBuildsIdempotency1795303622861,
  // Timestamps are stored as the API shows them (milliseconds), so `*_after` filters are exact.
  MillisecondTimestamps1795303906157,
  CountBuildsPerOrganization1795304119576,
  CreateTestRunsAndResults1795304583665,
  TrackCurrentResultsPerCase1795305149808,
  RememberReplacedResults1795305341577,
  CreateOutboxAndWebhooks1795305625273,
  // One foreign key per stored result instead of two, against a row the batch already holds.
  ResultsReferenceTheirRunCase1795311301458,
  // The links result batches bulk-load are checked once per statement, not once per row.
  ReferencesCheckedPerStatement1795317045732,
  // A claim that was taken over can neither answer nor release its successor's.
  IdempotencyClaimsCarryATokenAndNoSecrets1795469263941,
  // Failure detail on results, the quality gate's settings and quarantine (CONTRACT §12).
  ResultsIntelligence1795474562658,
  // Run positions and each case's outcome per run, kept for the flaky list (CONTRACT §12).
  KeepCaseOutcomes1795476498795,
  // The console's sign-in sessions (only a hash of each secret).
  CreateConsoleSessions1795484634867,
  // Who signed in through the OpenID provider (the console's sessions, issue 18).
  ConsoleSessionsRememberEmail1795490000000,
  // Project keys unique in any case; keys that differ only in case renamed `<key>-<n>` (issue 25).
  ProjectKeysIgnoreCase1795500000000,
  // A run keeps its gate verdict at completion; the gate's min_tests setting (issue 27).
  KeepRunVerdicts1795510000000,
  // A result's configuration and attempts; a run's current results are per slot (CONTRACT §13).
  ResultSlotsAndAttempts1795706444052,
  // A slot's current result keeps when it was stored: a release's progress reads only its runs.
  CurrentResultsKeepTheirTime1795800000000,
  // A project keeps its runs for a number of days, or all of them (issue 29).
  ProjectRetention1795810000000,
  // Where a project's defects live: a URL template, so results link their defect ids (issue 31).
  ProjectDefectUrlTemplate1795820000000,
  // Attachments of results and the key that signs their links (CONTRACT §15).
  CreateAttachments1795830000000,
  // The project overview's: runs by name, and failing results by signature (issue 31).
  OverviewIndexes1795850000000,
  // The console's runs list: each run's configurations on its row (issue 31).
  RunsListContext1795860000000,
  // Each release's slots by their latest result, kept on write: progress counts them (issue 29).
  KeepReleaseSlots1795870000000,
  // Results and current results partitioned by month of their run (issue 29).
  PartitionResultsByRunMonth1795880000000,
  // The flaky list's summary checked through the run's current results, not per row (issue 29).
  CaseOutcomesFollowTheirCase1795890000000,
];
