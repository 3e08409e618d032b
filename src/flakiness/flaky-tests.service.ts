import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { ProjectsService } from '../projects/projects.service.js';
import { type FlakyTestResponse, FlakyTestsQuery } from './dto/flaky-test.dto.js';
import { FlakyTestsRepository } from './flaky-tests.repository.js';
import { QuarantineRepository } from './quarantine.repository.js';

/** Which of some cases the flaky list names (with its defaults) and which are in quarantine. */
export interface CaseMarkers {
  flaky: Set<string>;
  quarantined: Set<string>;
}

@Injectable()
export class FlakyTestsService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly flakyTests: FlakyTestsRepository,
    private readonly quarantine: QuarantineRepository,
  ) {}

  /** The project's flaky cases, most flaky first (CONTRACT §12). */
  async list(
    caller: Caller,
    projectId: string,
    query: FlakyTestsQuery,
  ): Promise<Page<FlakyTestResponse>> {
    const { organizationId } = await this.projects.find(caller, projectId);
    const { items, total } = await this.flakyTests.list(organizationId, projectId, {
      branch: query.branch ?? null,
      window: query.window,
      minExecutions: query.min_executions,
      limit: query.limit,
      offset: query.offset,
      configuration: query.configuration,
    });
    return toPage(items, total, query);
  }

  /**
   * For a page of results (the console's run page): which of the project's `testCaseIds`
   * `list` would name with its default window, and which are in quarantine.
   */
  async markers(
    organizationId: string,
    projectId: string,
    testCaseIds: string[],
  ): Promise<CaseMarkers> {
    if (testCaseIds.length === 0) return { flaky: new Set(), quarantined: new Set() };
    const defaults = new FlakyTestsQuery();
    const { items } = await this.flakyTests.list(organizationId, projectId, {
      branch: null,
      window: defaults.window,
      minExecutions: defaults.min_executions,
      // Every slot of these cases: a case is marked when flaky in any configuration.
      limit: null,
      offset: 0,
      testCaseIds,
    });
    return {
      flaky: new Set(items.map((item) => item.test_case_id)),
      quarantined: await this.quarantine.activeAmong(organizationId, projectId, testCaseIds),
    };
  }
}
