import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import type { ReleaseProgressResponse } from '../releases/dto/release-progress.dto.js';
import type { ReleaseOverviewResponse } from '../releases/dto/release.dto.js';
import type { Release } from '../releases/entities/release.entity.js';
import { ReleasesRepository } from '../releases/releases.repository.js';
import { toReleaseResponse } from '../releases/releases.service.js';
import { QuarantineService } from '../flakiness/quarantine.service.js';
import { ReleaseResults } from '../results/release-results.js';
import { ReleaseProgress } from './release-progress.js';

/** Releases with their progress, as the release routes read them. */
@Injectable()
export class ReleaseOverviews {
  constructor(
    private readonly releases: ReleasesRepository,
    private readonly projects: ProjectLookup,
    private readonly progressOf: ReleaseProgress,
    private readonly quarantine: QuarantineService,
    private readonly results: ReleaseResults,
  ) {}

  /** Internal API: a page of the project's releases, newest first, each with its progress. */
  async page(projectId: string, query: PaginationQuery): Promise<Page<ReleaseOverviewResponse>> {
    const organizationId = await this.projects.organizationOf(projectId);
    const [releases, total] = await this.releases.page(projectId, query);
    return toPage(await this.overviewsOf(organizationId, projectId, releases), total, query);
  }

  /** The release with its progress (404 if the caller may not see it). */
  async get(caller: Caller, id: string): Promise<ReleaseOverviewResponse> {
    const release = await this.releases.find(caller, id);
    if (!release) throw ApiError.notFound('release');
    return this.overviewOf(release);
  }

  private async overviewOf(release: Release): Promise<ReleaseOverviewResponse> {
    const [overview] = await this.overviewsOf(release.organizationId, release.projectId, [release]);
    return overview;
  }

  /**
   * The releases (all of the project's) with their progress, and how many of their failures
   * are of cases in quarantine now (the gate ignores them; readiness counts them).
   */
  private async overviewsOf(
    organizationId: string,
    projectId: string,
    releases: Release[],
  ): Promise<ReleaseOverviewResponse[]> {
    const ids = releases.map((release) => release.id);
    const [progress, quarantined] = await Promise.all([
      this.progressOf.ofMany(organizationId, releases),
      this.quarantine
        .activeCases(organizationId, projectId)
        .then((cases) => this.results.latestFailingAmong(organizationId, ids, cases)),
    ]);
    return releases.map((release, i) => ({
      ...toReleaseResponse(release),
      progress: progress[i],
      quarantined_failures: quarantined.get(release.id) ?? 0,
    }));
  }

  /** `GET /releases/{id}/progress`: readiness of the release (404 if the caller may not see it). */
  async progress(caller: Caller, id: string): Promise<ReleaseProgressResponse> {
    const release = await this.releases.find(caller, id);
    if (!release) throw ApiError.notFound('release');
    return this.progressOf.of(release);
  }
}
