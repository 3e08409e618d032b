import { Injectable } from '@nestjs/common';
import { BuildLookup } from '../builds/build-lookup.js';
import type { Source } from '../builds/entities/build.entity.js';
import { ApiError } from '../common/errors/api-error.js';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { isoOrNull } from '../common/serialization.js';
import { uuid7 } from '../common/uuid7.js';
import { Transactions } from '../database/transactions.js';
import { EventsService } from '../events/events.service.js';
import { CaseOutcomes } from '../flakiness/case-outcomes.js';
import { RunVerdicts } from '../insights/run-verdicts.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import { ReleaseLookup } from '../releases/release-lookup.js';
import { ResultWriter } from '../results/result-writer.js';
import {
  CreateTestRunDto,
  TestRunFields,
  type ProjectTestRunQuery,
  TestRunQuery,
  TestRunResponse,
  UpdateTestRunDto,
} from './dto/test-run.dto.js';
import { TestRun, type TestRunStatus } from './entities/test-run.entity.js';
import { TestRunLookup } from './test-run-lookup.js';
import { type RunLockMode, TestRunsRepository } from './test-runs.repository.js';

export function toTestRunResponse(run: TestRun): TestRunResponse {
  return {
    id: run.id,
    project_id: run.projectId,
    name: run.name,
    build_id: run.buildId,
    release_id: run.releaseId,
    status: run.status,
    source: run.source,
    counts: {
      total: run.total,
      passed: run.passed,
      failed: run.failed,
      blocked: run.blocked,
      skipped: run.skipped,
      retest: run.retest,
      untested: run.untested,
      flaky: run.flaky,
    },
    submitted_at: isoOrNull(run.submittedAt),
    completed_at: isoOrNull(run.completedAt),
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
  };
}

/** Allowed moves: in_progress → submitted → completed, or in_progress → completed. */
const NEXT: Record<TestRunStatus, readonly TestRunStatus[]> = {
  in_progress: ['submitted', 'completed'],
  submitted: ['completed'],
  completed: [],
};

export interface NewRun {
  projectId: string;
  name: string;
  buildId?: string;
  releaseId?: string;
  testCaseIds?: string[];
}

@Injectable()
export class TestRunsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly runs: TestRunsRepository,
    private readonly lookup: TestRunLookup,
    private readonly projects: ProjectLookup,
    private readonly releases: ReleaseLookup,
    private readonly builds: BuildLookup,
    private readonly writer: ResultWriter,
    private readonly events: EventsService,
    private readonly verdicts: RunVerdicts,
    private readonly outcomes: CaseOutcomes,
  ) {}

  async create(
    organizationId: string,
    dto: CreateTestRunDto,
    source: Source = 'api',
  ): Promise<TestRunResponse> {
    return this.transactions.run(async () => {
      const run = await this.open(organizationId, source, {
        projectId: dto.project_id,
        name: dto.name,
        buildId: dto.build_id,
        releaseId: dto.release_id,
        testCaseIds: dto.test_case_ids,
      });
      // Live project lists show the new run once it commits, before any result arrives (a run
      // an ingest creates is announced by its first batch's counts, in the same statement).
      await this.runs.notifyChanged(run);
      return toTestRunResponse(run);
    });
  }

  /** Internal API: a run from the UI in the project named in the path. */
  async createFromUi(projectId: string, dto: TestRunFields): Promise<TestRunResponse> {
    const organizationId = await this.projects.organizationOf(projectId);
    return this.create(organizationId, { ...dto, project_id: projectId }, 'ui');
  }

  /**
   * Creates a run in the caller's transaction, checking every reference (400 naming the
   * field), with `test_case_ids` pre-populated as untested results.
   */
  async open(organizationId: string, source: Source, fields: NewRun): Promise<TestRun> {
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
    if (fields.testCaseIds?.length) {
      const items = fields.testCaseIds.map((testCaseId) => ({
        testCaseId,
        automationId: null,
        title: null,
        section: null,
        status: 'untested' as const,
        durationMs: null,
        message: null,
        failureType: null,
        stackTrace: null,
        defects: [],
        retries: 0,
        executedAt: null,
      }));
      await this.writer.write(run, items, {
        caseField: (i) => `test_case_ids[${i}]`,
        newRun: true,
      });
    }
    await this.events.record(organizationId, 'testrun.created.v1', toTestRunResponse(run));
    return run;
  }

  async list(organizationId: string, query: TestRunQuery): Promise<Page<TestRunResponse>> {
    if (query.project_id)
      await this.projects.require(organizationId, query.project_id, 'project_id');
    if (query.build_id) await this.builds.require(organizationId, query.build_id, 'build_id');
    if (query.release_id)
      await this.releases.require(organizationId, query.release_id, 'release_id');
    const [runs, total] = await this.runs.page(
      organizationId,
      {
        status: query.status,
        projectId: query.project_id,
        buildId: query.build_id,
        releaseId: query.release_id,
      },
      query,
    );
    return toPage(runs.map(toTestRunResponse), total, query);
  }

  /**
   * For the internal API: a project's runs, newest first, in its organization (404 if the
   * project is unknown).
   */
  async listInProject(
    projectId: string,
    query: ProjectTestRunQuery,
  ): Promise<Page<TestRunResponse>> {
    const organizationId = await this.projects.organizationOf(projectId);
    return this.list(organizationId, { ...query, project_id: projectId });
  }

  /** For the internal API: a release's runs, newest first (404 if the release is unknown). */
  async listInRelease(
    releaseId: string,
    query: ProjectTestRunQuery,
  ): Promise<Page<TestRunResponse>> {
    const organizationId = await this.releases.organizationOf(releaseId);
    return this.list(organizationId, { ...query, release_id: releaseId });
  }

  /** Internal API: a run named without its organization (404 if none). */
  async getAnywhere(id: string): Promise<TestRunResponse> {
    return toTestRunResponse(await this.findAnywhere(id));
  }

  async get(organizationId: string, id: string): Promise<TestRunResponse> {
    return toTestRunResponse(await this.find(organizationId, id));
  }

  /** The run if it is the organization's; 404 otherwise (`TestRunLookup.find`). */
  find(organizationId: string, id: string): Promise<TestRun> {
    return this.lookup.find(organizationId, id);
  }

  /** For the internal API: the run, whatever its organization; 404 if none. */
  findAnywhere(id: string): Promise<TestRun> {
    return this.lookup.findAnywhere(id);
  }

  async update(
    organizationId: string,
    id: string,
    dto: UpdateTestRunDto,
  ): Promise<TestRunResponse> {
    return this.transactions.run(async () => {
      const run = await this.lock(organizationId, id);
      return this.transition(run, dto.status);
    });
  }

  /** Internal API: `update` in the run's organization (404 if the run is unknown). */
  async updateAnywhere(id: string, dto: UpdateTestRunDto): Promise<TestRunResponse> {
    const run = await this.findAnywhere(id);
    return this.update(run.organizationId, id, dto);
  }

  /** Gives a run created in this transaction its position among its project's runs, once. */
  private async number(run: TestRun): Promise<void> {
    if (run.position !== null) return;
    run.position = await this.projects.numberRun(run.organizationId, run.projectId, 'project_id');
    await this.transactions.manager.update(TestRun, run.id, { position: run.position });
  }

  /** The run, row-locked for the rest of the transaction (`TestRunLookup.lock`). */
  lock(organizationId: string, id: string, mode: RunLockMode = 'exclusive'): Promise<TestRun> {
    return this.lookup.lock(organizationId, id, mode);
  }

  /**
   * Moves a run the caller holds exclusively to `submitted` or `completed` (409 for any
   * other move) and writes the matching event in the same transaction.
   */
  async transition(run: TestRun, status: TestRunStatus): Promise<TestRunResponse> {
    if (status === 'in_progress' || !NEXT[run.status].includes(status)) {
      throw ApiError.conflict(
        'invalid_transition',
        `A test run cannot move from ${run.status} to ${status}.`,
      );
    }
    const stamp =
      status === 'submitted' ? { submittedAt: new Date() } : { completedAt: new Date() };
    // Only these columns: the counts belong to the result batches.
    const manager = this.transactions.manager;
    await manager.update(TestRun, run.id, { status, ...stamp });
    // Its results count in the flaky list from the first of these moves on, at its number.
    if (run.status === 'in_progress') {
      await this.number(run);
      await this.outcomes.runConsidered(run);
    }
    await this.runs.notifyChanged(run);
    const updated = await manager.findOneByOrFail(TestRun, { id: run.id });
    const response = toTestRunResponse(updated);
    // The event also says how the run compares with its baseline and whether it passes the
    // quality gate (CONTRACT §12), as of this transaction: a pipeline can act on it alone.
    const verdict = await this.verdicts.of(run.organizationId, run.id);
    await this.events.record(
      run.organizationId,
      status === 'submitted' ? 'testrun.submitted.v1' : 'testrun.completed.v1',
      { ...response, ...verdict },
    );
    return response;
  }
}
