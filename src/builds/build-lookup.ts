import { Injectable } from '@nestjs/common';
import { requireReference } from '../database/references.js';
import { Transactions } from '../database/transactions.js';
import { BuildsRepository } from './builds.repository.js';
import { Build } from './entities/build.entity.js';

/** What other modules may ask of builds. */
@Injectable()
export class BuildLookup {
  constructor(
    private readonly transactions: Transactions,
    private readonly builds: BuildsRepository,
  ) {}

  /** Checks `id`, given in `field`, names a build of the organization (400 otherwise). */
  async require(organizationId: string, id: string, field: string): Promise<void> {
    await requireReference(this.transactions, Build, organizationId, id, field);
  }

  /** How many builds are assigned to each of the releases, by release id. */
  async countInReleases(releaseIds: string[]): Promise<Map<string, number>> {
    const rows = await this.builds.countInReleases(releaseIds);
    return new Map(rows.map((row) => [row.release_id, row.n]));
  }
}
