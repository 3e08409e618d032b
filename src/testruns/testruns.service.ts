import { Injectable } from '@nestjs/common';
import { Build, type Source } from '../builds/entities/build.entity.js';
import { ApiError } from '../common/errors/api-error.js';
import {
  fetchPage,
  whereCreatedBetween,
  type Page,
  toPage,
} from '../common/pagination/pagination.js';
import { requireReference } from '../database/references.js';
import { isoOrNull } from '../common/serialization.js';
import { uuid7 } from '../common/uuid7.js';
import { prepared } from '../database/preparing-client.js';
import { Transactions } from '../database/transactions.js';
import { EventsService } from '../events/events.service.js';
import { Project } from '../projects/entities/project.entity.js';
import { ProjectsService } from '../projects/projects.service.js';
import { Release } from '../releases/entities/release.entity.js';
import { ResultWriter } from '../results/result-writer.js';
import {
  CreateTestRunDto,
  TestRunFields,
  TestRunQuery,
  TestRunResponse,
  UpdateTestRunDto,
} from './dto/test-run.dto.js';
import { TestRun, type TestRunStatus } from './entities/test-run.entity.js';

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

/**
 * The statements that lock a run and read it (every result batch runs one), written from the
 * entity's columns once and prepared once per connection: TypeORM would build the query and
 * PostgreSQL plan it on every call.
 */
let locking: Record<'exclusive' | 'shared', string> | null = null;

function lockStatements(transactions: Transactions): Record<'exclusive' | 'shared', string> {
  if (locking === null) {
    const columns = transactions.manager.connection
      .getMetadata(TestRun)
      .columns.map((c) => `"${c.databaseName}" AS "${c.propertyName}"`)
      .join(', ');
    const select = `SELECT ${columns} FROM test_run WHERE id = $1 AND organization_id = $2`;
    locking = {
      exclusive: prepared(`${select} FOR UPDATE`),
      shared: prepared(`${select} FOR KEY SHARE`),
    };
  }
  return locking;
}

@Injectable()
export class TestRunsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly projects: ProjectsService,
    private readonly writer: ResultWriter,
    private readonly events: EventsService,
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
      return toTestRunResponse(run);
    });
  }

  /** Internal API: a run from the UI in the project named in the path. */
  async createFromUi(projectId: string, dto: TestRunFields): Promise<TestRunResponse> {
    const project = await this.projects.findAnywhere(projectId);
    return this.create(project.organizationId, { ...dto, project_id: projectId }, 'ui');
  }

  /**
   * Creates a run in the caller's transaction, checking every reference (400 naming the
   * field), with `test_case_ids` pre-populated as untested results.
   */
  async open(organizationId: string, source: Source, fields: NewRun): Promise<TestRun> {
    const manager = this.transactions.manager;
    await requireReference(
      this.transactions,
      Project,
      organizationId,
      fields.projectId,
      'project_id',
    );
    if (fields.buildId)
      await requireReference(this.transactions, Build, organizationId, fields.buildId, 'build_id');
    if (fields.releaseId) {
      const release = await requireReference(
        this.transactions,
        Release,
        organizationId,
        fields.releaseId,
        'release_id',
      );
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
      buildId: fields.buildId ?? null,
      releaseId: fields.releaseId ?? null,
      status: 'in_progress',
      source,
    });
    // An insert, not a save: with its id chosen here, a save would first look the run up to
    // decide between insert and update. The defaults (counts, times) come back into `run`.
    await manager.insert(TestRun, run);
    if (fields.testCaseIds?.length) {
      const items = fields.testCaseIds.map((testCaseId) => ({
        testCaseId,
        automationId: null,
        title: null,
        section: null,
        status: 'untested' as const,
        durationMs: null,
        message: null,
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
    const manager = this.transactions.manager;
    if (query.project_id)
      await requireReference(
        this.transactions,
        Project,
        organizationId,
        query.project_id,
        'project_id',
      );
    if (query.build_id)
      await requireReference(this.transactions, Build, organizationId, query.build_id, 'build_id');
    if (query.release_id)
      await requireReference(
        this.transactions,
        Release,
        organizationId,
        query.release_id,
        'release_id',
      );
    const qb = manager
      .createQueryBuilder(TestRun, 'run')
      .where('run.organizationId = :organizationId', { organizationId });
    const exact = {
      status: query.status,
      projectId: query.project_id,
      buildId: query.build_id,
      releaseId: query.release_id,
    };
    for (const [column, value] of Object.entries(exact)) {
      if (value !== undefined) qb.andWhere(`run.${column} = :${column}`, { [column]: value });
    }
    whereCreatedBetween(qb, 'run', query);
    qb.orderBy('run.createdAt', 'DESC').addOrderBy('run.id', 'DESC');
    const [runs, total] = await fetchPage(qb, query);
    return toPage(runs.map(toTestRunResponse), total, query);
  }

  async get(organizationId: string, id: string): Promise<TestRunResponse> {
    return toTestRunResponse(await this.find(organizationId, id));
  }

  /** The run if it is the organization's; 404 otherwise (no existence leaks). */
  async find(organizationId: string, id: string): Promise<TestRun> {
    const run = await this.transactions.manager.findOneBy(TestRun, { id, organizationId });
    if (!run) throw ApiError.notFound('test_run');
    return run;
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

  /**
   * The run, row-locked for the rest of the transaction (404 unless it is the organization's).
   * `exclusive` (FOR UPDATE) for status changes; result batches take `shared` (FOR KEY SHARE),
   * which lets batches run side by side but makes a status change wait for them, so no result
   * lands in a run that completed meanwhile.
   */
  async lock(
    organizationId: string,
    id: string,
    mode: 'exclusive' | 'shared' = 'exclusive',
  ): Promise<TestRun> {
    const manager = this.transactions.manager;
    const [row]: Array<Record<string, unknown>> = await manager.query(
      lockStatements(this.transactions)[mode],
      [id, organizationId],
    );
    if (!row) throw ApiError.notFound('test_run');
    return manager.create(TestRun, row as Partial<TestRun>);
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
    const updated = await manager.findOneByOrFail(TestRun, { id: run.id });
    const response = toTestRunResponse(updated);
    await this.events.record(
      run.organizationId,
      status === 'submitted' ? 'testrun.submitted.v1' : 'testrun.completed.v1',
      response,
    );
    return response;
  }
}
