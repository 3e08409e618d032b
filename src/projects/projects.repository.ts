import { Injectable } from '@nestjs/common';
import { type Caller, organizationOf } from '../common/caller.js';
import type { PaginationQuery } from '../common/pagination/pagination.js';
import { selectColumns } from '../database/entity-columns.js';
import { fetchPage, pagedSql } from '../database/paged-sql.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { TestCaseQuery } from './dto/test-case.dto.js';
import { Project } from './entities/project.entity.js';
import { TestCase } from './entities/test-case.entity.js';

/** Every column of `project`, by the entity's property names (a test checks them). */
export const PROJECT_COLUMNS = [
  'id',
  'organizationId',
  'name',
  'key',
  'description',
  'gateMinPassRate',
  'gateForbidMissingTests',
  'gateMinTests',
  'defectUrlTemplate',
  'runsCreated',
  'retentionDays',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof Project>;

/** Every column of `test_case`, by the entity's property names (a test checks them). */
export const TEST_CASE_COLUMNS = [
  'id',
  'organizationId',
  'projectId',
  'title',
  'automationId',
  'section',
  'priority',
  'status',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof TestCase>;

/** Project $1 if it is organization $2's, or any organization's when $2 is null (the operator). */
const FIND_PROJECT = sql(
  'projects.find',
  `SELECT ${selectColumns(PROJECT_COLUMNS)} FROM project
    WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)`,
);

/**
 * Sets project $1's defect URL template to $2 (null: none) if it is organization $3's, or any
 * organization's when $3 is null (the operator); no row for no such project.
 */
const SET_DEFECT_URL_TEMPLATE = sql(
  'projects.setDefectUrlTemplate',
  `UPDATE project SET defect_url_template = $2, updated_at = now()
    WHERE id = $1 AND ($3::uuid IS NULL OR organization_id = $3)
    RETURNING ${selectColumns(PROJECT_COLUMNS)}`,
);

/** Organization $1's projects, newest first. */
const PROJECTS = pagedSql('projects.list', {
  select: selectColumns(PROJECT_COLUMNS),
  from: 'project',
  where: 'organization_id = $1',
  orderBy: 'created_at DESC, id DESC',
});

/**
 * The console's case search, on test cases aliased `tc`, with the pattern (from `likePattern`,
 * LIKE's wildcards escaped by a backslash) as parameter `$n`: the title or automation id
 * contains it, case-insensitively. A run's results page searches with it too.
 */
export const titleOrAutomationIdContains = (n: number): string =>
  `(tc.title ILIKE $${n} ESCAPE '\\' OR tc.automation_id ILIKE $${n} ESCAPE '\\')`;

/**
 * Project $1's test cases (of organization $2) with automation id $3, updated strictly after
 * $4, and whose title contains pattern $5 (from `likePattern`), or with $6 their title or
 * automation id (the console's search: no index serves it; it filters the project's cases
 * walking IDX_test_case_project_created, about 45 ms for page and count over a project of
 * 20,000 cases. Trigram indexes would make that 8 ms but made creating 20,000 cases, a first
 * report, four times slower: 0.4 s → 1.9 s); each filter left out when null. Newest first.
 */
const TEST_CASES = pagedSql('testCases.list', {
  select: selectColumns(TEST_CASE_COLUMNS, 'tc'),
  from: 'test_case tc',
  where: `tc.project_id = $1 AND tc.organization_id = $2
          AND ($3::varchar IS NULL OR tc.automation_id = $3)
          AND ($4::timestamptz IS NULL OR tc.updated_at > $4)
          AND ($5::text IS NULL OR tc.title ILIKE $5 ESCAPE '\\'
               OR ($6 AND tc.automation_id ILIKE $5 ESCAPE '\\'))`,
  orderBy: 'tc.created_at DESC, tc.id DESC',
});

/** Whether project $1 has a case with automation id $2. */
const AUTOMATION_ID_TAKEN = sql(
  'testCases.automationIdTaken',
  'SELECT EXISTS (SELECT 1 FROM test_case WHERE project_id = $1 AND automation_id = $2) AS taken',
);

/** Project $1's test cases of ids $2 (those that are), with only what names them. */
const TEST_CASE_NAMES = sql(
  'testCases.names',
  `SELECT id, title, automation_id AS "automationId" FROM test_case
    WHERE project_id = $1 AND id = ANY($2::uuid[])`,
);

/** Test case $1 if it is organization $2's, or any organization's when $2 is null (the operator). */
const FIND_TEST_CASE = sql(
  'testCases.find',
  `SELECT ${selectColumns(TEST_CASE_COLUMNS)} FROM test_case
    WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)`,
);

/** Whether test case $1 is project $2's. */
const TEST_CASE_IN_PROJECT = sql(
  'testCases.inProject',
  'SELECT EXISTS (SELECT 1 FROM test_case WHERE id = $1 AND project_id = $2) AS found',
);

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
  async page(organizationId: string, query: PaginationQuery): Promise<[Project[], number]> {
    const manager = this.transactions.manager;
    const [rows, total] = await fetchPage<Project>(manager, PROJECTS, [organizationId], query);
    return [rows.map((row) => manager.create(Project, row)), total];
  }

  /** The project if the caller may see it: the organization's, or any for the operator. */
  async find(caller: Caller, id: string): Promise<Project | null> {
    const manager = this.transactions.manager;
    const [row]: Project[] = await manager.query(FIND_PROJECT, [id, organizationOf(caller)]);
    return row ? manager.create(Project, row) : null;
  }

  /** Sets the project's defect URL template (null: none); null if the caller may not see it. */
  async setDefectUrlTemplate(
    caller: Caller,
    id: string,
    template: string | null,
  ): Promise<Project | null> {
    const manager = this.transactions.manager;
    // An UPDATE's result through TypeORM is [rows, affected count].
    const [rows]: [Project[], number] = await manager.query(SET_DEFECT_URL_TEMPLATE, [
      id,
      template,
      organizationOf(caller),
    ]);
    const [row] = rows;
    return row ? manager.create(Project, row) : null;
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
  async testCasePage(
    organizationId: string,
    projectId: string,
    query: TestCaseQuery,
    search: CaseSearch = 'title',
  ): Promise<[TestCase[], number]> {
    const manager = this.transactions.manager;
    const [rows, total] = await fetchPage<TestCase>(
      manager,
      TEST_CASES,
      [
        projectId,
        organizationId,
        query.automation_id ?? null,
        query.updated_after ?? null,
        query.q === undefined ? null : likePattern(query.q),
        search === 'title_or_automation_id',
      ],
      query,
    );
    return [rows.map((row) => manager.create(TestCase, row)), total];
  }

  async automationIdTaken(projectId: string, automationId: string): Promise<boolean> {
    const [{ taken }]: Array<{ taken: boolean }> = await this.transactions.manager.query(
      AUTOMATION_ID_TAKEN,
      [projectId, automationId],
    );
    return taken;
  }

  /** The project's test cases of `ids` (those that are), with only what names them. */
  testCaseNames(
    projectId: string,
    ids: string[],
  ): Promise<Pick<TestCase, 'id' | 'title' | 'automationId'>[]> {
    return this.transactions.manager.query(TEST_CASE_NAMES, [projectId, ids]);
  }

  /** The test case if the caller may see it: the organization's, or any for the operator. */
  async testCase(caller: Caller, id: string): Promise<TestCase | null> {
    const manager = this.transactions.manager;
    const [row]: TestCase[] = await manager.query(FIND_TEST_CASE, [id, organizationOf(caller)]);
    return row ? manager.create(TestCase, row) : null;
  }

  async testCaseInProject(projectId: string, id: string): Promise<boolean> {
    const [{ found }]: Array<{ found: boolean }> = await this.transactions.manager.query(
      TEST_CASE_IN_PROJECT,
      [id, projectId],
    );
    return found;
  }

  /** Inserts a test case, in the caller's transaction. */
  insertTestCase(fields: Partial<TestCase>): Promise<TestCase> {
    const manager = this.transactions.manager;
    return manager.save(manager.create(TestCase, fields));
  }
}
