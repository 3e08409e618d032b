import { Injectable } from '@nestjs/common';
import { fetchPage, pagedSql } from '../database/paged-sql.js';
import { Transactions } from '../database/transactions.js';
import { titleOrAutomationIdContains } from './projects.repository.js';

/**
 * Organization $1's test cases, in all its projects, whose title or automation id contains
 * pattern $2 (from `likePattern`, case-insensitive), each with its project's key and name;
 * alphabetical by title, in any case. Each project's cases are read by `IDX_test_case_project_created` and
 * filtered, as the one-project search does (about 45 ms per 20,000 cases, CPU-bound; no
 * trigram index, see `testCases.list`): the cost grows with the organization's cases, and the
 * answer is a page of at most 100.
 */
const CASE_SEARCH = pagedSql('testCases.searchOrganization', {
  select: `tc.id, tc.project_id, p.key AS project_key, p.name AS project_name, tc.title,
          tc.automation_id, tc.updated_at`,
  from: 'project p JOIN test_case tc ON tc.project_id = p.id AND tc.organization_id = p.organization_id',
  where: `p.organization_id = $1 AND ${titleOrAutomationIdContains(2)}`,
  orderBy: 'lower(tc.title), tc.title, p.key, tc.id',
});

/** A test case found by a search across projects. */
export interface FoundCase {
  id: string;
  project_id: string;
  project_key: string;
  project_name: string;
  title: string;
  automation_id: string | null;
  updated_at: Date;
}

/** The search of an organization's test cases across its projects (issue 31). */
@Injectable()
export class CaseSearchRepository {
  constructor(private readonly transactions: Transactions) {}

  page(
    organizationId: string,
    pattern: string,
    page: { limit: number; offset: number },
  ): Promise<[FoundCase[], number]> {
    return fetchPage<FoundCase>(
      this.transactions.manager,
      CASE_SEARCH,
      [organizationId, pattern],
      page,
    );
  }
}
