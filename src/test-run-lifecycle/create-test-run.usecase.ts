import { Injectable } from '@nestjs/common';
import { type Caller, organizationFor } from '../common/caller.js';
import type { Source } from '../builds/entities/build.entity.js';
import { Transactions } from '../database/transactions.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import type { CreateTestRunDto, TestRunResponse } from '../testruns/dto/test-run.dto.js';
import { toTestRunResponse } from '../testruns/test-run-response.js';
import { TestRunsRepository } from '../testruns/test-runs.repository.js';
import { OpenTestRun } from './open-test-run.js';

export interface CreateTestRunCommand {
  /** An organization (its project only), or the operator (the project's organization). */
  caller: Caller;
  source: Source;
  run: CreateTestRunDto;
}

/** `POST /testruns` and the console's `POST /internal/v1/projects/{id}/testruns`. */
@Injectable()
export class CreateTestRun {
  constructor(
    private readonly transactions: Transactions,
    private readonly projects: ProjectLookup,
    private readonly openRun: OpenTestRun,
    private readonly runs: TestRunsRepository,
  ) {}

  async execute({ caller, source, run: dto }: CreateTestRunCommand): Promise<TestRunResponse> {
    const organizationId = await organizationFor(caller, () =>
      this.projects.organizationOf(dto.project_id),
    );
    return this.transactions.run(async () => {
      const run = await this.openRun.execute({
        organizationId,
        source,
        run: {
          projectId: dto.project_id,
          name: dto.name,
          buildId: dto.build_id,
          releaseId: dto.release_id,
          testCaseIds: dto.test_case_ids,
        },
      });
      // Live project lists show the new run once it commits, before any result arrives (a run
      // an ingest creates is announced by its first batch's counts, in the same statement).
      await this.runs.notifyChanged(run);
      return toTestRunResponse(run);
    });
  }
}
