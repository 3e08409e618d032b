import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { requireReference } from '../database/references.js';
import { Transactions } from '../database/transactions.js';
import { Release } from './entities/release.entity.js';

/** A release as another module needs to know it: which project it belongs to. */
export interface ReleaseReference {
  id: string;
  projectId: string;
}

/** What other modules may ask of releases. */
@Injectable()
export class ReleaseLookup {
  constructor(private readonly transactions: Transactions) {}

  /** The release `id`, given in `field`, if it is the organization's (400 naming it otherwise). */
  async require(organizationId: string, id: string, field: string): Promise<ReleaseReference> {
    const release = await requireReference(this.transactions, Release, organizationId, id, field);
    return { id: release.id, projectId: release.projectId };
  }

  /** Internal API: the organization of the release `id` (of whatever organization); 404 if none. */
  async organizationOf(id: string): Promise<string> {
    const release = await this.transactions.manager.findOneBy(Release, { id });
    if (!release) throw ApiError.notFound('release');
    return release.organizationId;
  }
}
