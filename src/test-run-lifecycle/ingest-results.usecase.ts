import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { Transactions } from '../database/transactions.js';
import type { IngestResponse } from '../results/dto/result.dto.js';
import type { IngestCommand } from '../results/result-commands.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { OpenTestRun } from './open-test-run.js';
import { WriteRunResults } from './write-run-results.js';

export interface IngestResultsCommand {
  organizationId: string;
  /** From a JSON body or a JUnit report alike. */
  ingest: IngestCommand;
}

/**
 * `POST /results/ingest`: JSON results or a report, into a given run, the run of a build with
 * the name given, or a new run.
 */
@Injectable()
export class IngestResults {
  constructor(
    private readonly transactions: Transactions,
    private readonly lookup: TestRunLookup,
    private readonly openRun: OpenTestRun,
    private readonly writeResults: WriteRunResults,
  ) {}

  async execute({ organizationId, ingest }: IngestResultsCommand): Promise<IngestResponse> {
    return this.transactions.run(async () => {
      const { run, created } = await this.runFor(organizationId, ingest);
      const written = await this.writeResults.execute({
        run,
        items: ingest.items,
        complete: ingest.complete,
        options: { newRun: created },
      });
      return {
        test_run_id: run.id,
        accepted: ingest.items.length,
        created_test_cases: written.createdTestCases,
      };
    });
  }

  /**
   * The run named by `test_run_id` (400 unless it is the organization's and matches the links
   * given); else, with `join_run` (an addition to CONTRACT §6, which creates a run whenever no
   * `test_run_id` is given), the `build_id`'s run of the `run_name` (the parallel shards of one
   * pipeline post into the same run, each in one call), created by the first such ingest; else
   * a new run.
   */
  private async runFor(
    organizationId: string,
    ingest: IngestCommand,
  ): Promise<{ run: TestRun; created: boolean }> {
    const mode = ingest.complete ? 'exclusive' : 'shared';
    if (ingest.testRunId === undefined) {
      if (ingest.projectId === undefined) {
        throw ApiError.invalidField(
          'project_id',
          'project_id is required when no test_run_id is given',
        );
      }
      const { projectId, runName, buildId } = ingest;
      if (ingest.joinRun) {
        if (runName === undefined || buildId === undefined) {
          throw ApiError.invalidField(
            'join_run',
            'join_run needs run_name and build_id: the build’s run of that name is joined',
          );
        }
        const named = { projectId, buildId, name: runName };
        const run = await this.lookup.lockNamedInBuild(organizationId, named, mode);
        if (run) return { run: checkLinks(run, ingest), created: false };
      }
      const run = await this.openRun.execute({
        organizationId,
        source: 'api',
        run: {
          projectId,
          name: runName ?? `Ingested ${new Date().toISOString()}`,
          buildId,
          releaseId: ingest.releaseId,
        },
      });
      return { run, created: true };
    }
    const run = await this.lookup
      .lock(organizationId, ingest.testRunId, mode)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.code === ErrorCode.NotFound) {
          throw ApiError.invalidField(
            'test_run_id',
            'test_run_id does not name a test run of this organization',
          );
        }
        throw error;
      });
    return { run: checkLinks(run, ingest), created: false };
  }
}

/** The run, unless a link the ingest gives differs from the run's (400 naming it). */
function checkLinks(run: TestRun, ingest: IngestCommand): TestRun {
  const mismatch = (
    [
      ['project_id', ingest.projectId, run.projectId],
      ['build_id', ingest.buildId, run.buildId],
      ['release_id', ingest.releaseId, run.releaseId],
    ] as const
  ).find(([, given, actual]) => given !== undefined && given !== actual);
  if (mismatch)
    throw ApiError.invalidField(mismatch[0], `${mismatch[0]} differs from the test run's`);
  return run;
}
