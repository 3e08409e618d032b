import { Injectable } from '@nestjs/common';
import { BuildLookup } from '../builds/build-lookup.js';
import { ReleaseResults } from '../results/release-results.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import type {
  NotReadyReason,
  ReleaseProgressResponse,
} from '../releases/dto/release-progress.dto.js';
import type { Release } from '../releases/entities/release.entity.js';

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** Ready is the absence of every reason, so the two never disagree (CONTRACT §6's order). */
function notReadyReasons(
  runs: ReleaseProgressResponse['test_runs'],
  results: ReleaseProgressResponse['results'],
): NotReadyReason[] {
  const reasons: Array<[NotReadyReason, boolean]> = [
    ['no_runs', runs.total === 0],
    ['runs_open', runs.completed < runs.total],
    ['failed_results', results.failed > 0],
    ['blocked_results', results.blocked > 0],
  ];
  return reasons.filter(([, applies]) => applies).map(([reason]) => reason);
}

/**
 * Release readiness (CONTRACT §6), from what the modules that own them count: the builds
 * assigned to the release, its runs by status, and each case once, by its latest stored
 * result across all of the release's runs (kept per slot as results are written: `release_slot`).
 * Three aggregate queries, run side by side, for one release or a page of them.
 */
@Injectable()
export class ReleaseProgress {
  constructor(
    private readonly builds: BuildLookup,
    private readonly runs: TestRunLookup,
    private readonly results: ReleaseResults,
  ) {}

  async of(release: Release): Promise<ReleaseProgressResponse> {
    const [progress] = await this.ofMany(release.organizationId, [release]);
    return progress;
  }

  /** Each release's progress (all of them organization `organizationId`'s), in the same order. */
  async ofMany(organizationId: string, releases: Release[]): Promise<ReleaseProgressResponse[]> {
    const ids = releases.map((release) => release.id);
    const [builds, runsOf, resultsOf] = await Promise.all([
      this.builds.countInReleases(ids),
      this.runs.statusCountsInReleases(ids),
      this.results.latestStatusCounts(organizationId, ids),
    ]);
    return releases.map((release) => {
      const runs = runsOf.get(release.id) as ReleaseProgressResponse['test_runs'];
      const results = resultsOf.get(release.id) as ReleaseProgressResponse['results'];
      const executed = results.total - results.untested;
      const notReadyBecause = notReadyReasons(runs, results);
      return {
        release_id: release.id,
        status: release.status,
        builds: builds.get(release.id) ?? 0,
        test_runs: runs,
        results,
        pass_rate: executed === 0 ? null : round4(results.passed / executed),
        completion_rate: results.total === 0 ? null : round4(executed / results.total),
        ready: notReadyBecause.length === 0,
        not_ready_because: notReadyBecause,
      };
    });
  }
}
