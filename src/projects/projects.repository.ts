import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type Caller, tenantOf } from '../common/caller.js';
import { fetchPage, PaginationQuery } from '../common/pagination/pagination.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { TestCaseQuery } from './dto/test-case.dto.js';
import { Project } from './entities/project.entity.js';
import { TestCase } from './entities/test-case.entity.js';

/** The test-case list's optional filters, each a condition on `tc`. */
/**
 * The console's case search, on test cases aliased `tc`: the title or automation id contains
 * `:q` (case-insensitive; the pattern from `likePattern`). A run's results page searches with it too.
 */
export const TITLE_OR_AUTOMATION_ID_CONTAINS = sql(
  'testCases.list.whereTitleOrAutomationIdContains',
  `(tc.title ILIKE :q ESCAPE '\\' OR tc.automationId ILIKE :q ESCAPE '\\')`,
);

const CASE_FILTERS = {
  automationId: sql('testCases.list.whereAutomationId', 'tc.automationId = :automationId'),
  updatedAfter: sql('testCases.list.whereUpdatedAfter', 'tc.updatedAt > :updatedAfter'),
  // The pattern comes from `likePattern`, with LIKE's wildcards escaped by a backslash.
  titleContains: sql('testCases.list.whereTitleContains', `tc.title ILIKE :q ESCAPE '\\'`),
  // The console's search: the same pattern against the title or the automation id. No index
  // serves it: it filters the project's cases (walking IDX_test_case_project_created), about
  // 45 ms for page and count over a project of 20,000 cases. Trigram indexes would make that
  // 8 ms but made creating 20,000 cases (a first report) four times slower (0.4 s → 1.9 s).
  titleOrAutomationIdContains: TITLE_OR_AUTOMATION_ID_CONTAINS,
};

/** What a test-case list's `q` is matched against. */
export type CaseSearch = 'title' | 'title_or_automation_id';

/**
 * Counts a new run of the project and returns its number (its `position`); no row when the
 * project is not the organization's. The row stays locked until the caller's transaction ends,
 * so runs of one project are numbered in the order their transactions create them.
 */
const NUMBER_RUN = sql(
  'projects.numberRun',
  `UPDATE project SET runs_created = runs_created + 1
   WHERE id = $1 AND organization_id = $2
   RETURNING runs_created`,
);

/**
 * A new project of organization $1 (name $2, key $3, description $4), unless the organization
 * has key $3 already in any case (CONTRACT §6): then no row. A concurrent creation of the same
 * key is waited for, so two never both succeed.
 */
const INSERT_PROJECT = sql(
  'projects.insert',
  `INSERT INTO project (organization_id, name, key, description) VALUES ($1, $2, $3, $4)
   ON CONFLICT (organization_id, lower(key)) DO NOTHING
   RETURNING id, created_at, updated_at`,
);

/** Escapes LIKE wildcards so `q` matches literally (for `ILIKE … ESCAPE '\\'`). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** How projects and their test cases are read: the SQL of `project` and `test_case`. */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** A page of the organization's projects, newest first, and their number. */
  page(organizationId: string, query: PaginationQuery): Promise<[Project[], number]> {
    return fetchPage(
      this.transactions.manager
        .createQueryBuilder(Project, 'project')
        .where('project.organizationId = :organizationId', { organizationId })
        .orderBy('project.createdAt', 'DESC')
        .addOrderBy('project.id', 'DESC'),
      query,
    );
  }

  /** The project if the caller may see it: the organization's, or any for the operator. */
  find(caller: Caller, id: string): Promise<Project | null> {
    return this.transactions.manager.findOneBy(Project, { id, ...tenantOf(caller) });
  }

  /** The number of the project's new run (see `NUMBER_RUN`); null if not the organization's. */
  async numberRun(organizationId: string, id: string): Promise<number | null> {
    const [rows]: [Array<{ runs_created: number }>, number] = await this.transactions.manager.query(
      NUMBER_RUN,
      [id, organizationId],
    );
    return rows[0]?.runs_created ?? null;
  }

  /** Creates the project; null when the organization has its key already, in any case. */
  async insert(
    organizationId: string,
    project: Pick<Project, 'name' | 'key' | 'description'>,
  ): Promise<Project | null> {
    const manager = this.transactions.manager;
    const rows: Array<{ id: string; created_at: Date; updated_at: Date }> = await manager.query(
      INSERT_PROJECT,
      [organizationId, project.name, project.key, project.description],
    );
    if (rows.length === 0) return null;
    const [{ id, created_at: createdAt, updated_at: updatedAt }] = rows;
    return manager.create(Project, { ...project, id, organizationId, createdAt, updatedAt });
  }

  /** A page of a project's test cases, newest first, and the number of all that match. */
  testCasePage(
    organizationId: string,
    projectId: string,
    query: TestCaseQuery,
    search: CaseSearch = 'title',
  ): Promise<[TestCase[], number]> {
    const qb = this.transactions.manager
      .createQueryBuilder(TestCase, 'tc')
      .where('tc.projectId = :projectId', { projectId })
      .andWhere('tc.organizationId = :organizationId', { organizationId });
    if (query.automation_id !== undefined)
      qb.andWhere(CASE_FILTERS.automationId, { automationId: query.automation_id });
    if (query.updated_after !== undefined)
      qb.andWhere(CASE_FILTERS.updatedAfter, { updatedAfter: query.updated_after });
    if (query.q !== undefined) {
      const filter =
        search === 'title' ? CASE_FILTERS.titleContains : CASE_FILTERS.titleOrAutomationIdContains;
      qb.andWhere(filter, { q: likePattern(query.q) });
    }
    return fetchPage(qb.orderBy('tc.createdAt', 'DESC').addOrderBy('tc.id', 'DESC'), query);
  }

  automationIdTaken(projectId: string, automationId: string): Promise<boolean> {
    return this.transactions.manager.existsBy(TestCase, { projectId, automationId });
  }

  /** The project's test cases of `ids` (those that are), with only what names them. */
  testCaseNames(
    projectId: string,
    ids: string[],
  ): Promise<Pick<TestCase, 'id' | 'title' | 'automationId'>[]> {
    return this.transactions.manager.find(TestCase, {
      select: { id: true, title: true, automationId: true },
      where: { projectId, id: In(ids) },
    });
  }

  /** The test case if the caller may see it: the organization's, or any for the operator. */
  testCase(caller: Caller, id: string): Promise<TestCase | null> {
    return this.transactions.manager.findOneBy(TestCase, { id, ...tenantOf(caller) });
  }

  testCaseInProject(projectId: string, id: string): Promise<boolean> {
    return this.transactions.manager.existsBy(TestCase, { id, projectId });
  }

  /** Inserts a test case, in the caller's transaction. */
  insertTestCase(fields: Partial<TestCase>): Promise<TestCase> {
    const manager = this.transactions.manager;
    return manager.save(manager.create(TestCase, fields));
  }
}
