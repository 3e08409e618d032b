import { Injectable } from '@nestjs/common';
import type { ResultAttachmentLinkListResponse } from '../attachments/dto/attachment.dto.js';
import { ResultAttachments } from '../attachments/result-attachments.js';
import { BuildLookup } from '../builds/build-lookup.js';
import type { Build } from '../builds/entities/build.entity.js';
import type { Caller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { FlakyTestsService } from '../flakiness/flaky-tests.service.js';
import { ProjectLookup, TestCaseLookup } from '../projects/project-lookup.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import type { ResultBuildDto, ResultDetailResponse } from './dto/result-detail.dto.js';
import { toResultResponse } from './result-response.js';
import { ResultsRepository } from './results.repository.js';
import { entityToStored } from './results.service.js';

function toResultBuild(build: Build): ResultBuildDto {
  return {
    id: build.id,
    name: build.name,
    build_number: build.buildNumber,
    branch: build.branch,
    commit_sha: build.commitSha,
  };
}

/**
 * One result with what explains it (the console's detail view): its test case, its run and
 * the run's build, its defects as links through the project's template, and the case's
 * flaky and quarantine markers.
 */
@Injectable()
export class ResultDetailService {
  constructor(
    private readonly results: ResultsRepository,
    private readonly testRuns: TestRunLookup,
    private readonly builds: BuildLookup,
    private readonly projects: ProjectLookup,
    private readonly testCases: TestCaseLookup,
    private readonly flakyTests: FlakyTestsService,
    private readonly resultAttachments: ResultAttachments,
  ) {}

  /** The result if the caller may see it (404 otherwise). */
  async get(caller: Caller, id: string): Promise<ResultDetailResponse> {
    const result = await this.results.find(caller, id);
    if (!result) throw ApiError.notFound('result');
    const run = await this.testRuns.find(caller, result.testRunId);
    const build =
      run.buildId === null ? null : await this.builds.find(run.organizationId, run.buildId);
    const names = await this.testCases.names(run.projectId, [result.testCaseId]);
    const markers = await this.flakyTests.markers(run.organizationId, run.projectId, [
      result.testCaseId,
    ]);
    const name = names.get(result.testCaseId);
    return {
      ...toResultResponse(entityToStored(result)),
      test_case_title: name?.title ?? '',
      automation_id: name?.automationId ?? null,
      case_flaky: markers.flaky.has(result.testCaseId),
      quarantined: markers.quarantined.has(result.testCaseId),
      project_id: run.projectId,
      test_run_name: run.name,
      test_run_status: run.status,
      build: build === null ? null : toResultBuild(build),
      defect_links: await this.projects.defectLinks(run.projectId, result.defects),
    };
  }

  /**
   * The result's stored attachments with links to their bytes (404 when the caller may not see
   * the result): asked apart from the result, so the page refreshes the short-lived links
   * without reading the result again.
   */
  async attachments(
    caller: Caller,
    id: string,
    origin: string,
  ): Promise<ResultAttachmentLinkListResponse> {
    const result = await this.results.find(caller, id);
    if (!result) throw ApiError.notFound('result');
    return {
      data: await this.resultAttachments.withLinks(result.organizationId, result.id, origin),
    };
  }
}
