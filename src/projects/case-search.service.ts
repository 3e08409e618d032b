import { Injectable } from '@nestjs/common';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { Transactions } from '../database/transactions.js';
import { requireOrganization } from '../tenants/require-organization.js';
import { CaseSearchRepository, type FoundCase } from './case-search.repository.js';
import type { CaseSearchQuery, FoundTestCaseResponse } from './dto/case-search.dto.js';
import { likePattern } from './projects.repository.js';

function toFoundTestCaseResponse(found: FoundCase): FoundTestCaseResponse {
  return {
    id: found.id,
    project_id: found.project_id,
    project_key: found.project_key,
    project_name: found.project_name,
    title: found.title,
    automation_id: found.automation_id,
    updated_at: found.updated_at.toISOString(),
  };
}

/** "Where is this test?" (issue 31): an organization's cases by title or automation id. */
@Injectable()
export class CaseSearchService {
  constructor(
    private readonly transactions: Transactions,
    private readonly cases: CaseSearchRepository,
  ) {}

  /** A page of the organization's matching cases, by title (404: no such organization). */
  async search(
    organizationId: string,
    query: CaseSearchQuery,
  ): Promise<Page<FoundTestCaseResponse>> {
    await requireOrganization(this.transactions, organizationId);
    const [found, total] = await this.cases.page(organizationId, likePattern(query.q), query);
    return toPage(found.map(toFoundTestCaseResponse), total, query);
  }
}
