import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { isoOrNull } from '../common/serialization.js';
import { Transactions } from '../database/transactions.js';
import { EventsService } from '../events/events.service.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import { ReleasesRepository } from './releases.repository.js';
import { CreateReleaseDto, ReleaseResponse, UpdateReleaseDto } from './dto/release.dto.js';
import { Release, RELEASE_STATUSES, type ReleaseStatus } from './entities/release.entity.js';

export function toReleaseResponse(release: Release): ReleaseResponse {
  return {
    id: release.id,
    project_id: release.projectId,
    name: release.name,
    version: release.version,
    status: release.status,
    target_date: release.targetDate,
    released_at: isoOrNull(release.releasedAt),
    runs_deleted: release.runsDeleted,
    created_at: release.createdAt.toISOString(),
    updated_at: release.updatedAt.toISOString(),
  };
}

/** Releases move forward only: planned → in_progress → completed, and completed is final. */
function canMove(from: ReleaseStatus, to: ReleaseStatus): boolean {
  return RELEASE_STATUSES.indexOf(to) > RELEASE_STATUSES.indexOf(from);
}

@Injectable()
export class ReleasesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly releases: ReleasesRepository,
    private readonly projects: ProjectLookup,
    private readonly events: EventsService,
  ) {}

  async create(projectId: string, dto: CreateReleaseDto): Promise<ReleaseResponse> {
    const organizationId = await this.projects.organizationOf(projectId);
    const release = await this.transactions.run(() =>
      this.releases.insert({
        organizationId,
        projectId,
        name: dto.name,
        version: dto.version ?? null,
        status: 'planned',
        targetDate: dto.target_date ?? null,
        releasedAt: null,
      }),
    );
    return toReleaseResponse(release);
  }

  /** A change to `completed` sets `released_at` (and emits `release.released.v1` once). */
  async update(caller: Caller, id: string, dto: UpdateReleaseDto): Promise<ReleaseResponse> {
    return this.transactions.run(async () => {
      // Row lock: two concurrent completions cannot both see "not completed yet".
      const release = await this.releases.lock(caller, id);
      if (!release) throw ApiError.notFound('release');
      if (dto.status !== undefined) {
        if (!canMove(release.status, dto.status)) {
          throw ApiError.conflict(
            'invalid_transition',
            `A release cannot move from ${release.status} to ${dto.status}.`,
          );
        }
        release.status = dto.status;
        if (dto.status === 'completed') {
          release.releasedAt = new Date();
        }
      }
      if (dto.name !== undefined) release.name = dto.name;
      if (dto.version !== undefined) release.version = dto.version;
      if (dto.target_date !== undefined) release.targetDate = dto.target_date;
      const response = toReleaseResponse(await this.releases.save(release));
      if (dto.status === 'completed') {
        await this.events.record(release.organizationId, 'release.released.v1', response);
      }
      return response;
    });
  }
}
