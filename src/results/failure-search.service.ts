import { Injectable } from '@nestjs/common';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { likePattern } from '../projects/projects.repository.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import type { FailureSearchQuery, FoundFailureResponse } from './dto/failure-search.dto.js';
import { FailureSearchRepository, type FoundFailure } from './failure-search.repository.js';

function toFoundFailureResponse(found: FoundFailure): FoundFailureResponse {
  return {
    result_id: found.result_id,
    test_run_id: found.test_run_id,
    run_name: found.run_name,
    run_created_at: found.run_created_at.toISOString(),
    test_case_id: found.test_case_id,
    title: found.title,
    automation_id: found.automation_id,
    configuration: found.configuration === '' ? null : found.configuration,
    status: found.status,
    failure_type: found.failure_type,
    message: found.message,
    created_at: found.created_at.toISOString(),
  };
}

/**
 * "What failed with this error lately?" (issue 31): the current results of a project's latest
 * runs whose message or failure type contains a text, case and accents aside.
 */
@Injectable()
export class FailureSearchService {
  constructor(
    private readonly projects: ProjectLookup,
    private readonly failures: FailureSearchRepository,
  ) {}

  /** A page of the matches, newest run first (404: no such project). */
  async search(projectId: string, query: FailureSearchQuery): Promise<Page<FoundFailureResponse>> {
    const organizationId = await this.projects.organizationOf(projectId);
    const [found, total] = await this.failures.page(
      organizationId,
      projectId,
      { pattern: likePattern(query.q), runs: query.runs },
      query,
    );
    return toPage(found.map(toFoundFailureResponse), total, query);
  }
}
