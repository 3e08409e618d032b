import { Injectable } from '@nestjs/common';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { ReleaseSlotsRepository, type SlotResult } from './release-slots.repository.js';
import { inRounds } from './rounds.js';
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
   * What a batch into `run` makes current, gathered round by round (`SlotsOfBatch.add`) and
   * recorded at the batch's end (`record`): the rows it locks there, which batches into the
   * release's other runs share, are then held only until the commit that follows, so batches
   * into one release's runs store their rounds side by side and wait for each other only
   * there. Null for a run without a release.
   */
  batchOf(run: TestRun): SlotsOfBatch | null {
    return run.releaseId === null ? null : new SlotsOfBatch(this.slots, run, run.releaseId);
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

/**
 * The current results a batch made in a run of a release, one per slot in slot order (rounds
 * come in slot order and no slot spans two), kept as four short fields each: the batch's items
 * are in memory anyway, and these are a fraction of them.
 */
export class SlotsOfBatch {
  private readonly current: SlotResult[] = [];
  private storedAt: Date | null = null;

  constructor(
    private readonly slots: ReleaseSlotsRepository,
    private readonly run: TestRun,
    private readonly releaseId: string,
  ) {}

  /** A round's current results (one per slot, in slot order). */
  add(current: StoredResult[]): void {
    for (const r of current) {
      this.current.push({
        test_case_id: r.test_case_id,
        configuration: r.configuration ?? '',
        id: r.id,
        status: r.status,
      });
      this.storedAt ??= r.created_at;
    }
  }

  /**
   * Each slot takes its new current result where it is later than the slot's latest, in
   * rounds of the writer's size and in slot order, as every batch into the release's runs
   * locks them; then, rarely, the slots whose latest was this run's result that an earlier
   * one replaced are read again from the release's runs.
   */
  async record(): Promise<void> {
    if (this.storedAt === null) return;
    const target = {
      id: this.run.id,
      organizationId: this.run.organizationId,
      releaseId: this.releaseId,
    };
    for (const round of inRounds(this.current)) {
      const stale = await this.slots.record(target, round, this.storedAt);
      if (stale.length > 0)
        await this.slots.recompute(target.organizationId, this.releaseId, stale);
    }
  }
}
