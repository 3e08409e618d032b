import { Injectable } from '@nestjs/common';
import { organizationCaller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { BuildsRepository } from './builds.repository.js';
import type { Build } from './entities/build.entity.js';

/** What other modules may ask of builds. */
@Injectable()
export class BuildLookup {
  constructor(private readonly builds: BuildsRepository) {}

  /** Checks `id`, given in `field`, names a build of the organization (400 otherwise). */
  async require(organizationId: string, id: string, field: string): Promise<void> {
    if (!(await this.builds.find(organizationCaller(organizationId), id)))
      throw ApiError.unknownReference(field);
  }

  /** The organization's build, as a result's run names it; null if none. */
  find(organizationId: string, id: string): Promise<Build | null> {
    return this.builds.find(organizationCaller(organizationId), id);
  }

  /** How many builds are assigned to each of the releases, by release id. */
  async countInReleases(releaseIds: string[]): Promise<Map<string, number>> {
    const rows = await this.builds.countInReleases(releaseIds);
    return new Map(rows.map((row) => [row.release_id, row.n]));
  }
}
