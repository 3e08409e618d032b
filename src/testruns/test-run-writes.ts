import { Injectable } from '@nestjs/common';
import { BuildLookup } from '../builds/build-lookup.js';
import type { Source } from '../builds/entities/build.entity.js';
import { ApiError } from '../common/errors/api-error.js';
import { uuid7 } from '../common/uuid7.js';
import { Transactions } from '../database/transactions.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import { ReleaseLookup } from '../releases/release-lookup.js';
import { TestRun, type TestRunStatus } from './entities/test-run.entity.js';

/**
 * Allowed moves: in_progress → submitted → completed, or in_progress → completed; and back to
 * in_progress from either (a reopening: the CI job runs again).
 */
const NEXT: Record<TestRunStatus, readonly TestRunStatus[]> = {
  in_progress: ['submitted', 'completed'],
  submitted: ['completed', 'in_progress'],
  completed: ['in_progress'],
};

/**
 * What each move stamps. A reopened run is not completed any more, so it loses its completion
 * time (the next completion stamps it again); it was submitted, so it keeps that time until a
 * later submission. Its kept gate verdict stays until the next completion renews it.
 */
const STAMP: Record<TestRunStatus, () => Partial<TestRun>> = {
  in_progress: () => ({ completedAt: null }),
  submitted: () => ({ submittedAt: new Date() }),
  completed: () => ({ completedAt: new Date() }),
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
    private readonly projects: ProjectLookup,
    private readonly releases: ReleaseLookup,
    private readonly builds: BuildLookup,
  ) {}

  /** Inserts a run in progress, checking every reference (400 naming the field). */
  async insert(organizationId: string, source: Source, fields: NewRun): Promise<TestRun> {
    const manager = this.transactions.manager;
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
    const run = manager.create(TestRun, {
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
    // An insert, not a save: with its id chosen here, a save would first look the run up to
    // decide between insert and update. The defaults (counts, times) come back into `run`.
    await manager.insert(TestRun, run);
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
    await this.transactions.manager.update(TestRun, run.id, { position: run.position });
  }

  /**
   * Moves a run the caller holds exclusively to another status, stamping when (409 for a move
   * `NEXT` does not allow). Only these columns: the counts belong to the result batches.
   */
  async moveTo(run: TestRun, status: TestRunStatus): Promise<void> {
    if (!NEXT[run.status].includes(status)) {
      throw ApiError.conflict(
        'invalid_transition',
        `A test run cannot move from ${run.status} to ${status}.`,
      );
    }
    await this.transactions.manager.update(TestRun, run.id, { status, ...STAMP[status]() });
  }

  /** Keeps the gate's verdict of the completion this transaction makes (CONTRACT §12). */
  async keepGate(run: TestRun, passed: boolean, evaluatedAt: Date): Promise<void> {
    await this.transactions.manager.update(TestRun, run.id, {
      gatePassed: passed,
      gateEvaluatedAt: evaluatedAt,
    });
  }

  /** The run's row as this transaction sees it now. */
  reread(run: TestRun): Promise<TestRun> {
    return this.transactions.manager.findOneByOrFail(TestRun, { id: run.id });
  }
}
