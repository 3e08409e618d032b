import { Injectable } from '@nestjs/common';
import { OPERATOR, organizationCaller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { ReleasesRepository } from './releases.repository.js';

/** A release as another module needs to know it: which project it belongs to. */
export interface ReleaseReference {
  id: string;
  projectId: string;
}

/** What other modules may ask of releases. */
@Injectable()
export class ReleaseLookup {
  constructor(private readonly releases: ReleasesRepository) {}

  /** The release `id`, given in `field`, if it is the organization's (400 naming it otherwise). */
  async require(organizationId: string, id: string, field: string): Promise<ReleaseReference> {
    const release = await this.releases.find(organizationCaller(organizationId), id);
    if (!release) throw ApiError.unknownReference(field);
    return { id: release.id, projectId: release.projectId };
  }

  /** Internal API: the organization of the release `id` (of whatever organization); 404 if none. */
  async organizationOf(id: string): Promise<string> {
    const release = await this.releases.find(OPERATOR, id);
    if (!release) throw ApiError.notFound('release');
    return release.organizationId;
  }
}
