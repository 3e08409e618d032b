import { Injectable } from '@nestjs/common';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { ReleaseSlotsRepository } from './release-slots.repository.js';
import type { StoredResult } from './stored-result.js';

/** A run deleted by retention, as far as its release's slots care. */
export interface DeletedRun {
  id: string;
  organizationId: string;
  releaseId: string | null;
}

/**
 * Keeps `release_slot`, each release's slots with their latest current result across the
 * release's runs (what its progress counts), in the transaction of the change that alters it:
 * results written into one of the release's runs, or runs deleted by retention. A run's
 * status (submitted, completed, reopened) changes nothing here: progress takes the latest
 * result whatever the run's status, and a run keeps its release for life.
 */
@Injectable()
export class ReleaseSlots {
  constructor(private readonly slots: ReleaseSlotsRepository) {}

  /**
   * `current` (one result per slot, in slot order, stored in this transaction) just became
   * the slots' current results in `run`: one upsert, and, rarely, a second statement for the
   * slots whose latest was this run's result that an earlier one replaced.
   */
  async recordResults(run: TestRun, current: StoredResult[]): Promise<void> {
    if (run.releaseId === null || current.length === 0) return;
    const target = { id: run.id, organizationId: run.organizationId, releaseId: run.releaseId };
    const stale = await this.slots.record(
      target,
      current.map((r) => ({
        test_case_id: r.test_case_id,
        configuration: r.configuration ?? '',
        id: r.id,
        status: r.status,
      })),
      current[0].created_at,
    );
    if (stale.length > 0) await this.slots.recompute(run.organizationId, run.releaseId, stale);
  }

  /**
   * `runs` were just deleted (retention): each release's slots whose latest came from them
   * take the latest of the release's remaining runs, or go when none has the slot.
   */
  async forgetRuns(runs: DeletedRun[]): Promise<void> {
    const byRelease = new Map<string, { organizationId: string; runIds: string[] }>();
    for (const run of runs) {
      if (run.releaseId === null) continue;
      const release = byRelease.get(run.releaseId) ?? {
        organizationId: run.organizationId,
        runIds: [],
      };
      release.runIds.push(run.id);
      byRelease.set(run.releaseId, release);
    }
    for (const [releaseId, { organizationId, runIds }] of byRelease) {
      await this.slots.forgetRuns(organizationId, releaseId, runIds);
    }
  }
}
