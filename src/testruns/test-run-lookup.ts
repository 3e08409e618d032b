import { Injectable } from '@nestjs/common';
import { type Caller, organizationCaller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import type { TestRun, TestRunStatus } from './entities/test-run.entity.js';
import { type RunLockMode, TestRunsRepository } from './test-runs.repository.js';

export type RunStatusCounts = Record<TestRunStatus | 'total', number>;

/** What other modules may read of test runs: a run of an organization, and a release's runs. */
@Injectable()
export class TestRunLookup {
  constructor(private readonly runs: TestRunsRepository) {}

  /** The run if the caller may see it; 404 otherwise (no existence leaks). */
  async find(caller: Caller, id: string): Promise<TestRun> {
    const run = await this.runs.find(caller, id);
    if (!run) throw ApiError.notFound('test_run');
    return run;
  }

  /** The run if it is the organization's, else null: for a run named in a query, a 400. */
  findOrNull(organizationId: string, id: string): Promise<TestRun | null> {
    return this.runs.find(organizationCaller(organizationId), id);
  }

  /**
   * The run, row-locked for the rest of the transaction (404 unless it is the organization's).
   * `exclusive` (FOR UPDATE) for status changes; result batches take `shared` (FOR KEY SHARE),
   * which lets batches run side by side but makes a status change wait for them, so no result
   * lands in a run that completed meanwhile.
   */
  async lock(
    organizationId: string,
    id: string,
    mode: RunLockMode = 'exclusive',
  ): Promise<TestRun> {
    const run = await this.runs.lock(organizationId, id, mode);
    if (!run) throw ApiError.notFound('test_run');
    return run;
  }

  /**
   * The newest run of the project and build named `name`, row-locked in `mode`, or null when
   * there is none; then this transaction holds the right to create it until it ends, so that
   * ingests of a pipeline's shards that arrive together create one run, not one each.
   */
  async lockNamedInBuild(
    organizationId: string,
    named: { projectId: string; buildId: string; name: string },
    mode: RunLockMode,
  ): Promise<TestRun | null> {
    const { projectId, buildId, name } = named;
    const find = () => this.runs.findNamedInBuild(organizationId, projectId, buildId, name);
    // Most ingests find the run: only the ones that do not wait for each other.
    let id = await find();
    if (id === null) {
      await this.runs.holdNameInBuild(organizationId, projectId, buildId, name);
      // Read committed: a run that a transaction holding the lock created is seen now.
      id = await find();
    }
    return id === null ? null : this.lock(organizationId, id, mode);
  }

  /** Each release's runs by status, and all of them, by release id (every id present). */
  async statusCountsInReleases(releaseIds: string[]): Promise<Map<string, RunStatusCounts>> {
    const counts = new Map<string, RunStatusCounts>(
      releaseIds.map((id) => [id, { total: 0, in_progress: 0, submitted: 0, completed: 0 }]),
    );
    for (const row of await this.runs.statusCountsInReleases(releaseIds)) {
      const release = counts.get(row.release_id) as RunStatusCounts;
      release[row.status] = row.n;
      release.total += row.n;
    }
    return counts;
  }
}
