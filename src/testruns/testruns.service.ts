import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { BuildLookup } from '../builds/build-lookup.js';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import { ReleaseLookup } from '../releases/release-lookup.js';
import type { ProjectTestRunQuery, TestRunQuery, TestRunResponse } from './dto/test-run.dto.js';
import { toTestRunResponse } from './test-run-response.js';
import { TestRunLookup } from './test-run-lookup.js';
import { TestRunsRepository } from './test-runs.repository.js';

/** Reading runs; their changes are the lifecycle's use cases (`test-run-lifecycle/`). */
@Injectable()
export class TestRunsService {
  constructor(
    private readonly runs: TestRunsRepository,
    private readonly lookup: TestRunLookup,
    private readonly projects: ProjectLookup,
    private readonly releases: ReleaseLookup,
    private readonly builds: BuildLookup,
  ) {}

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

  /** For the internal API: a release's runs, newest first (404 if the release is unknown). */
  async listInRelease(
    releaseId: string,
    query: ProjectTestRunQuery,
  ): Promise<Page<TestRunResponse>> {
    const organizationId = await this.releases.organizationOf(releaseId);
    return this.list(organizationId, { ...query, release_id: releaseId });
  }

  async get(caller: Caller, id: string): Promise<TestRunResponse> {
    return toTestRunResponse(await this.lookup.find(caller, id));
  }
}
