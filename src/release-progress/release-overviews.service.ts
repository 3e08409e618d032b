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
import { ReleaseProgress } from './release-progress.js';

/** Releases with their progress, as the release routes read them. */
@Injectable()
export class ReleaseOverviews {
  constructor(
    private readonly releases: ReleasesRepository,
    private readonly projects: ProjectLookup,
    private readonly progressOf: ReleaseProgress,
  ) {}

  /** Internal API: a page of the project's releases, newest first, each with its progress. */
  async page(projectId: string, query: PaginationQuery): Promise<Page<ReleaseOverviewResponse>> {
    await this.projects.organizationOf(projectId);
    const [releases, total] = await this.releases.page(projectId, query);
    const progress = await this.progressOf.ofMany(releases);
    const overviews = releases.map((release, i) => ({
      ...toReleaseResponse(release),
      progress: progress[i],
    }));
    return toPage(overviews, total, query);
  }

  /** The release with its progress (404 if the caller may not see it). */
  async get(caller: Caller, id: string): Promise<ReleaseOverviewResponse> {
    const release = await this.releases.find(caller, id);
    if (!release) throw ApiError.notFound('release');
    return this.overviewOf(release);
  }

  private async overviewOf(release: Release): Promise<ReleaseOverviewResponse> {
    return { ...toReleaseResponse(release), progress: await this.progressOf.of(release) };
  }

  /** `GET /releases/{id}/progress`: readiness of the release (404 if the caller may not see it). */
  async progress(caller: Caller, id: string): Promise<ReleaseProgressResponse> {
    const release = await this.releases.find(caller, id);
    if (!release) throw ApiError.notFound('release');
    return this.progressOf.of(release);
  }
}
