import { Injectable } from '@nestjs/common';
import { type Caller, organizationCaller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { HttpResult } from '../common/http/http-result.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { Transactions } from '../database/transactions.js';
import { EventsService } from '../events/events.service.js';
import { requireOrganization } from '../tenants/require-organization.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import { ReleaseLookup } from '../releases/release-lookup.js';
import { BuildQueue } from './build-queue.js';
import { BuildsRepository } from './builds.repository.js';
import {
  BuildQuery,
  BuildResponse,
  CreateBuildDto,
  QueuedBuildResponse,
  UpdateBuildDto,
} from './dto/build.dto.js';
import { Build, type Source } from './entities/build.entity.js';

export function toBuildResponse(build: Build): BuildResponse {
  return {
    id: build.id,
    name: build.name,
    build_number: build.buildNumber,
    commit_sha: build.commitSha,
    branch: build.branch,
    repo_url: build.repoUrl,
    status: build.status,
    source: build.source,
    queue_position: build.queuePosition,
    project_id: build.projectId,
    release_id: build.releaseId,
    created_at: build.createdAt.toISOString(),
    updated_at: build.updatedAt.toISOString(),
  };
}

export type CreatedBuild = HttpResult<BuildResponse | QueuedBuildResponse>;

@Injectable()
export class BuildsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly builds: BuildsRepository,
    private readonly queue: BuildQueue,
    private readonly projects: ProjectLookup,
    private readonly releases: ReleaseLookup,
    private readonly events: EventsService,
  ) {}

  /**
   * Registers a build: without a release it waits in the queue (202, `planned`); with one it
   * is assigned at once (201, `assigned`).
   */
  async create(organizationId: string, dto: CreateBuildDto, source: Source): Promise<CreatedBuild> {
    return this.transactions.run(async () => {
      const { projectId, releaseId } = await this.resolveReferences(organizationId, dto, null);
      const queuePosition = releaseId === null ? await this.queue.append(organizationId) : null;
      const build = await this.builds.insert({
        organizationId,
        projectId,
        releaseId,
        name: dto.name,
        buildNumber: dto.build_number ?? null,
        commitSha: dto.commit_sha ?? null,
        branch: dto.branch ?? null,
        repoUrl: dto.repo_url ?? null,
        status: releaseId === null ? 'planned' : 'assigned',
        source,
        queuePosition,
      });
      const response = toBuildResponse(build);
      await this.events.record(organizationId, 'build.created.v1', response);
      if (build.queuePosition === null) return new HttpResult(201, response);
      return new HttpResult(202, {
        ...response,
        message: `Build registered; it waits in the queue for assignment to a release (position ${build.queuePosition}).`,
      });
    });
  }

  /** Internal API: a build from the UI into an organization named in the path. */
  async createInOrganization(organizationId: string, dto: CreateBuildDto): Promise<CreatedBuild> {
    await requireOrganization(this.transactions, organizationId);
    return this.create(organizationId, dto, 'ui');
  }

  async list(organizationId: string, query: BuildQuery): Promise<Page<BuildResponse>> {
    if (query.project_id)
      await this.projects.require(organizationId, query.project_id, 'project_id');
    if (query.release_id)
      await this.releases.require(organizationId, query.release_id, 'release_id');
    const [builds, total] = await this.builds.page(
      organizationId,
      {
        status: query.status,
        branch: query.branch,
        commitSha: query.commit_sha,
        buildNumber: query.build_number,
        releaseId: query.release_id,
        projectId: query.project_id,
        source: query.source,
      },
      query,
    );
    return toPage(builds.map(toBuildResponse), total, query);
  }

  async get(organizationId: string, id: string): Promise<BuildResponse> {
    return toBuildResponse(await this.find(organizationId, id));
  }

  /** Updates metadata; a `release_id` assigns the build and takes it out of the queue. */
  async update(organizationId: string, id: string, dto: UpdateBuildDto): Promise<BuildResponse> {
    return this.transactions.run(async () => {
      if (dto.release_id !== undefined) await this.queue.lock(organizationId);
      const build = await this.find(organizationId, id, true);
      const { projectId, releaseId } = await this.resolveReferences(organizationId, dto, build);
      if (releaseId !== null && build.releaseId !== releaseId) {
        await this.queue.remove(organizationId, build.id);
        build.queuePosition = null;
        build.status = 'assigned';
      }
      build.projectId = projectId;
      build.releaseId = releaseId;
      if (dto.name !== undefined) build.name = dto.name;
      if (dto.build_number !== undefined) build.buildNumber = dto.build_number;
      if (dto.commit_sha !== undefined) build.commitSha = dto.commit_sha;
      if (dto.branch !== undefined) build.branch = dto.branch;
      if (dto.repo_url !== undefined) build.repoUrl = dto.repo_url;
      return toBuildResponse(await this.builds.save(build));
    });
  }

  /** Assigns a build to a release of its organization (404 if the caller may not see it). */
  async assign(caller: Caller, id: string, releaseId: string): Promise<BuildResponse> {
    const build = await this.builds.find(caller, id);
    if (!build) throw ApiError.notFound('build');
    return this.update(build.organizationId, id, { release_id: releaseId });
  }

  /** Internal API: the organization's planned builds in queue order. */
  async queueOf(organizationId: string, query: PaginationQuery): Promise<Page<BuildResponse>> {
    await requireOrganization(this.transactions, organizationId);
    const [builds, total] = await this.builds.queuePage(organizationId, query);
    return toPage(builds.map(toBuildResponse), total, query);
  }

  private async find(organizationId: string, id: string, lock = false): Promise<Build> {
    const build = await this.builds.find(organizationCaller(organizationId), id, lock);
    if (!build) throw ApiError.notFound('build');
    return build;
  }

  /**
   * Checks `project_id` and `release_id` belong to the organization (400 naming the field
   * otherwise) and agree with each other; a release also decides the project.
   */
  private async resolveReferences(
    organizationId: string,
    dto: { project_id?: string; release_id?: string },
    current: Build | null,
  ): Promise<{ projectId: string | null; releaseId: string | null }> {
    let projectId = dto.project_id ?? current?.projectId ?? null;
    if (dto.project_id !== undefined) {
      await this.projects.require(organizationId, dto.project_id, 'project_id');
    }
    const releaseId = dto.release_id ?? current?.releaseId ?? null;
    // A new release, or a new project for an assigned build: the two must agree.
    if (releaseId !== null && (dto.release_id !== undefined || dto.project_id !== undefined)) {
      const release = await this.releases.require(organizationId, releaseId, 'release_id');
      if (dto.project_id !== undefined && dto.project_id !== release.projectId) {
        const field = dto.release_id !== undefined ? 'release_id' : 'project_id';
        throw ApiError.invalidField(
          field,
          `${field}: the release belongs to another project than project_id`,
        );
      }
      projectId = release.projectId;
    }
    return { projectId, releaseId };
  }
}
