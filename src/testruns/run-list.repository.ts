import { Injectable } from '@nestjs/common';
import type { CreatedBetweenQuery } from '../common/pagination/pagination.js';
import { selectColumns } from '../database/entity-columns.js';
import { fetchPage, pagedSql } from '../database/paged-sql.js';
import { Transactions } from '../database/transactions.js';
import { TestRun, type TestRunStatus } from './entities/test-run.entity.js';
import { TEST_RUN_COLUMNS } from './test-runs.repository.js';

/**
 * Project $2's runs (of organization $1) of status $3, named $4, whose build is on branch $5,
 * created strictly after $6 and before $7, each filter left out when null. The build is read
 * by its key beside each run (a left join: a run without a build stays listed unless a branch
 * is asked for). Newest first, read by `IDX_test_run_project_created` or, for one name,
 * `IDX_test_run_project_name_created`, and stopped at the page's end.
 */
const LIST_WHERE = `run.organization_id = $1 AND run.project_id = $2
          AND ($3::test_run_status IS NULL OR run.status = $3)
          AND ($4::text IS NULL OR run.name = $4)
          AND ($5::text IS NULL OR build.branch = $5)
          AND ($6::timestamptz IS NULL OR run.created_at > $6)
          AND ($7::timestamptz IS NULL OR run.created_at < $7)`;
const LIST_FROM = `test_run run
          LEFT JOIN build ON build.id = run.build_id AND build.organization_id = run.organization_id`;

/**
 * The page of `LIST_WHERE`'s runs, each with its build's context (its configurations are on
 * its row, kept by the result batches); the total counts runs and builds alone.
 */
const LIST = pagedSql('testRuns.listWithContext', {
  select: `${selectColumns(TEST_RUN_COLUMNS, 'run')},
          build.name AS "buildName", build.build_number AS "buildNumber",
          build.branch AS "buildBranch", build.commit_sha AS "buildCommitSha"`,
  from: LIST_FROM,
  where: LIST_WHERE,
  orderBy: 'run.created_at DESC, run.id DESC',
});

/** Which of a project's runs the console lists. */
export interface RunListFilter {
  status?: TestRunStatus;
  name?: string;
  branch?: string;
}

/** A listed run with what its build says of it. */
export interface ListedRun {
  run: TestRun;
  build: {
    name: string;
    buildNumber: string | null;
    branch: string | null;
    commitSha: string | null;
  } | null;
}

type ListRow = TestRun & {
  buildName: string | null;
  buildNumber: string | null;
  buildBranch: string | null;
  buildCommitSha: string | null;
};

/** The console's runs list: a project's runs with their builds' context (issue 31). */
@Injectable()
export class RunListRepository {
  constructor(private readonly transactions: Transactions) {}

  /** A page of the project's runs that match `filter`, newest first, and the number of all. */
  async page(
    organizationId: string,
    projectId: string,
    filter: RunListFilter,
    query: CreatedBetweenQuery,
  ): Promise<[ListedRun[], number]> {
    const manager = this.transactions.manager;
    const [rows, total] = await fetchPage<ListRow>(
      manager,
      LIST,
      [
        organizationId,
        projectId,
        filter.status ?? null,
        filter.name ?? null,
        filter.branch ?? null,
        query.created_after ?? null,
        query.created_before ?? null,
      ],
      query,
    );
    const listed = rows.map(({ buildName, buildNumber, buildBranch, buildCommitSha, ...run }) => ({
      run: manager.create(TestRun, run),
      build:
        run.buildId === null || buildName === null
          ? null
          : { name: buildName, buildNumber, branch: buildBranch, commitSha: buildCommitSha },
    }));
    return [listed, total];
  }
}
