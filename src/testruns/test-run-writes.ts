import { Injectable } from '@nestjs/common';
import { BuildLookup } from '../builds/build-lookup.js';
import type { Source } from '../builds/entities/build.entity.js';
import { ApiError } from '../common/errors/api-error.js';
import { uuid7 } from '../common/uuid7.js';
import { Transactions } from '../database/transactions.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import { ReleaseLookup } from '../releases/release-lookup.js';
import type { TestRun, TestRunStatus } from './entities/test-run.entity.js';
import { TestRunsRepository } from './test-runs.repository.js';

/**
 * Allowed moves: in_progress → submitted → completed, or in_progress → completed; and back to
 * in_progress from either (a reopening: the CI job runs again).
 */
const NEXT: Record<TestRunStatus, readonly TestRunStatus[]> = {
  in_progress: ['submitted', 'completed'],
  submitted: ['completed', 'in_progress'],
  completed: ['in_progress'],
};

export interface NewRun {
  projectId: string;
  name: string;
  buildId?: string;
  releaseId?: string;
  testCaseIds?: string[];
}

/** The run's row as the lifecycle's use cases change it, in the caller's transaction. */
@Injectable()
export class TestRunWrites {
  constructor(
    private readonly transactions: Transactions,
    private readonly runs: TestRunsRepository,
    private readonly projects: ProjectLookup,
    private readonly releases: ReleaseLookup,
    private readonly builds: BuildLookup,
  ) {}

  /** Inserts a run in progress, checking every reference (400 naming the field). */
  async insert(organizationId: string, source: Source, fields: NewRun): Promise<TestRun> {
    await this.projects.require(organizationId, fields.projectId, 'project_id');
    if (fields.buildId) await this.builds.require(organizationId, fields.buildId, 'build_id');
    if (fields.releaseId) {
      const release = await this.releases.require(organizationId, fields.releaseId, 'release_id');
      if (release.projectId !== fields.projectId) {
        throw ApiError.invalidField(
          'release_id',
          'release_id belongs to another project than project_id',
        );
      }
    }
    const run = await this.runs.insert({
      id: uuid7(),
      organizationId,
      projectId: fields.projectId,
      name: fields.name,
      position: null,
      buildId: fields.buildId ?? null,
      releaseId: fields.releaseId ?? null,
      status: 'in_progress',
      source,
    });
    // Its number among the project's runs is taken last, so that the project's row (the
    // counter) is locked only while the transaction commits, not while a report is stored:
    // runs of one project are created side by side.
    this.transactions.beforeCommit(() => this.number(run));
    return run;
  }

  /** Gives a run created in this transaction its position among its project's runs, once. */
  async number(run: TestRun): Promise<void> {
    if (run.position !== null) return;
    run.position = await this.projects.numberRun(run.organizationId, run.projectId, 'project_id');
    await this.runs.setPosition(run, run.position);
  }

  /**
   * Moves a run the caller holds exclusively to another status, stamping when (409 for a move
   * `NEXT` does not allow; what each move stamps: `TestRunsRepository`'s `MOVE`).
   */
  async moveTo(run: TestRun, status: TestRunStatus): Promise<void> {
    if (!NEXT[run.status].includes(status)) {
      throw ApiError.conflict(
        'invalid_transition',
        `A test run cannot move from ${run.status} to ${status}.`,
      );
    }
    await this.runs.move(run, status, new Date());
  }

  /** Keeps the gate's verdict of the completion this transaction makes (CONTRACT §12). */
  async keepGate(run: TestRun, passed: boolean, evaluatedAt: Date): Promise<void> {
    await this.runs.keepGate(run, passed, evaluatedAt);
  }

  /** The run's row as this transaction sees it now. */
  reread(run: TestRun): Promise<TestRun> {
    return this.runs.reread(run);
  }
}
