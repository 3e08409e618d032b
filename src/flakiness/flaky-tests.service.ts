import { Injectable } from '@nestjs/common';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { ProjectsService } from '../projects/projects.service.js';
import type { FlakyTestResponse, FlakyTestsQuery } from './dto/flaky-test.dto.js';
import { FlakyTestsRepository } from './flaky-tests.repository.js';

@Injectable()
export class FlakyTestsService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly flakyTests: FlakyTestsRepository,
  ) {}

  /** The project's flaky cases, most flaky first (CONTRACT §12). */
  async list(
    organizationId: string,
    projectId: string,
    query: FlakyTestsQuery,
  ): Promise<Page<FlakyTestResponse>> {
    await this.projects.find(organizationId, projectId);
    const { items, total } = await this.flakyTests.list(organizationId, projectId, {
      branch: query.branch ?? null,
      window: query.window,
      minExecutions: query.min_executions,
      limit: query.limit,
      offset: query.offset,
    });
    return toPage(items, total, query);
  }
}
