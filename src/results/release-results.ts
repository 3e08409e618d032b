import { Injectable } from '@nestjs/common';
import { RESULT_STATUSES, type ResultStatus } from './entities/result-status.js';
import { ReleaseResultsRepository } from './release-results.repository.js';

export type ReleaseResultCounts = Record<ResultStatus | 'total', number>;

/** What the results module tells others of a release's results. */
@Injectable()
export class ReleaseResults {
  constructor(private readonly repository: ReleaseResultsRepository) {}

  /**
   * Each release's slots by the status of their latest result across all of its runs, and all
   * of them (CONTRACT §6), by release id (every id present). The releases are organization
   * `organizationId`'s.
   */
  async latestStatusCounts(
    organizationId: string,
    releaseIds: string[],
  ): Promise<Map<string, ReleaseResultCounts>> {
    const rows = await this.repository.latestStatusCounts(organizationId, releaseIds);
    const counts = new Map(
      releaseIds.map((id) => [
        id,
        Object.fromEntries([
          ['total', 0],
          ...RESULT_STATUSES.map((s) => [s, 0]),
        ]) as ReleaseResultCounts,
      ]),
    );
    for (const row of rows) {
      const release = counts.get(row.release_id) as ReleaseResultCounts;
      release[row.status] = row.n;
      release.total += row.n;
    }
    return counts;
  }

  /**
   * How many of each release's slots of the cases `testCaseIds` have a failed or blocked latest
   * result, by release id (every id present). The releases are organization `organizationId`'s.
   */
  async latestFailingAmong(
    organizationId: string,
    releaseIds: string[],
    testCaseIds: string[],
  ): Promise<Map<string, number>> {
    const counts = new Map(releaseIds.map((id) => [id, 0]));
    if (testCaseIds.length === 0) return counts;
    const rows = await this.repository.latestFailingAmong(organizationId, releaseIds, testCaseIds);
    for (const row of rows) {
      counts.set(row.release_id, row.n);
    }
    return counts;
  }
}
