import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Settings } from '../config/settings.js';
import { Transactions } from '../database/transactions.js';
import { AttachmentRetention } from '../attachments/retention/attachment-retention.js';
import { CaseOutcomes } from '../flakiness/case-outcomes.js';
import { lockForTransaction } from '../database/advisory-locks.js';
import { RunPartitionsRepository } from '../partitions/run-partitions.repository.js';
import type { RunMonth } from '../database/run-months.js';
import { ReleaseSlots } from '../results/release-slots.js';
import { RunRetentionRepository, type ExpiredRun } from './retention.repository.js';

/** Runs locked per transaction at most. */
const RUNS_PER_BATCH = 20;
/**
 * Current results deleted per transaction, about: a batch takes runs in age order until their
 * totals reach it (always at least one run), so a transaction stays short whatever the runs' size.
 */
const RESULTS_PER_BATCH = 50_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What one sweep deleted. */
export interface SweepReport {
  /** Whole months dropped (their partitions), before any run was deleted alone. */
  months: number;
  runs: number;
  /** Their current results (one per slot), as the runs counted them. */
  slots: number;
}

/**
 * First drops the months (`partitions/`) whose every run is past its project's retention, a
 * month at a time: the month's partitions of `test_result` and `test_run_case` are dropped
 * whole (no row deleted, little WAL, the disk given back), after the runs' places in the
 * summaries are taken back as below. Then deletes the remaining runs of each project older than its retention (`project.retention_days`; null
 * keeps everything), in short transactions, with everything that belongs to a run: its current
 * results and results (by the tables' triggers), its attachments (their content too, unless another
 * attachment shares it) and its characters in the flaky list's summary
 * (set back to `.`, as a reopened run's are, so the list counts only runs that exist), and its
 * place in its release's slots (`release_slot`: the remaining runs' latest instead). What is
 * not the run's stays: its test cases, their quarantine, its build and release. Replicas sweep
 * side by side: each locks the runs it deletes and skips the ones another holds.
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RetentionSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<SweepReport> | null = null;
  private stopped = false;

  constructor(
    private readonly settings: Settings,
    private readonly transactions: Transactions,
    private readonly retention: RunRetentionRepository,
    private readonly caseOutcomes: CaseOutcomes,
    private readonly attachments: AttachmentRetention,
    private readonly releaseSlots: ReleaseSlots,
    private readonly partitions: RunPartitionsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () =>
        void this.sweep().catch((e: unknown) =>
          this.logger.warn(`Retention sweep failed: ${String(e)}`),
        ),
      this.settings.retentionSweepIntervalMs,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }

  /** One pass over every project with a retention; a pass already under way is joined. */
  sweep(now: Date = new Date()): Promise<SweepReport> {
    this.sweeping ??= this.sweepAll(now).finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async sweepAll(now: Date): Promise<SweepReport> {
    const report: SweepReport = { months: 0, runs: 0, slots: 0 };
    for (const month of await this.partitions.months()) {
      // The current month, and one just ended, can still be written (a replica's clock).
      if (month.end.getTime() > now.getTime() - DAY_MS) break;
      if (this.stopped) return report;
      const dropped = await this.dropMonth(month, now);
      if (dropped === null) continue;
      report.months++;
      report.runs += dropped.length;
      report.slots += dropped.reduce((sum, run) => sum + run.total, 0);
      // A past month without runs (none was made then) goes too, without a word.
      if (dropped.length > 0) {
        this.logger.log(`Retention dropped ${month.suffix} (${dropped.length} runs)`);
      }
    }
    for (const project of await this.retention.projectsWithRetention()) {
      const before = new Date(now.getTime() - project.retention_days * DAY_MS);
      for (;;) {
        if (this.stopped) return report;
        const deleted = await this.deleteBatch(project.id, before);
        report.runs += deleted.runs;
        report.slots += deleted.slots;
        if (deleted.runs === 0) break;
      }
    }
    if (report.runs > 0) {
      this.logger.log(`Retention deleted ${report.runs} runs (${report.slots} current results)`);
    }
    return report;
  }

  /**
   * One transaction: `month` dropped if all its runs are past their retention (null if not),
   * its runs' summaries, attachments and release slots first; the tables stay locked only from
   * the drop to the commit (the partitions, then the runs' rows).
   */
  private dropMonth(month: RunMonth, now: Date): Promise<ExpiredRun[] | null> {
    return this.transactions.begin(async () => {
      await lockForTransaction(this.transactions, 'run-partitions');
      if (!(await this.retention.monthExpired(month, now))) return null;
      const runs = await this.retention.lockRunsOfMonth(month);
      const ids = runs.map((run) => run.id);
      await this.forgetOutcomes(runs, ids);
      if (runs.length > 0) {
        await this.attachments.deleteOfRuns(ids);
        // Their slots take the release's other runs' latest (read without these runs' ids)
        // before the tables are locked.
        await this.releaseSlots.forgetRuns(runs);
      }
      await this.partitions.drop(month);
      if (runs.length > 0) await this.retention.deleteRuns(ids);
      return runs;
    });
  }

  /**
   * Takes the characters of `runs` (being deleted: `ids`) out of the flaky list's summary: per
   * project, at once when they are its oldest runs (no other run at or before the latest of
   * them: retention deletes oldest first, so almost always), else run by run.
   */
  private async forgetOutcomes(runs: ExpiredRun[], ids: string[]): Promise<void> {
    for (const [projectId, ofProject] of summarizedByProject(runs)) {
      const latest = Math.max(...ofProject.map((run) => run.position as number));
      if (!(await this.retention.olderRunsRemain(projectId, latest, ids))) {
        await this.caseOutcomes.forgetRunsUpTo(projectId, latest);
        continue;
      }
      for (const run of ofProject) await this.caseOutcomes.forgetRun(run);
    }
  }

  /** One transaction: the oldest expired runs of a project, up to the batch's size. */
  private deleteBatch(projectId: string, before: Date): Promise<Omit<SweepReport, 'months'>> {
    return this.transactions.begin(async () => {
      const locked = await this.retention.lockExpiredRuns(projectId, before, RUNS_PER_BATCH);
      const runs = takeBatch(locked);
      const ids = runs.map((run) => run.id);
      await this.forgetOutcomes(runs, ids);
      if (runs.length > 0) {
        await this.attachments.deleteOfRuns(ids);
        await this.retention.deleteRuns(ids);
        // Their releases' slots whose latest result was theirs take the remaining runs' latest.
        await this.releaseSlots.forgetRuns(runs);
      }
      return { runs: runs.length, slots: runs.reduce((sum, run) => sum + run.total, 0) };
    });
  }
}

/** The runs of `runs` that have characters in the flaky list's summary, by project. */
function summarizedByProject(runs: ExpiredRun[]): Map<string, ExpiredRun[]> {
  const byProject = new Map<string, ExpiredRun[]>();
  for (const run of runs) {
    // A run in progress has no characters in the summary; one that left it has.
    if (run.status === 'in_progress' || run.position === null) continue;
    byProject.set(run.projectId, [...(byProject.get(run.projectId) ?? []), run]);
  }
  return byProject;
}

/** The runs, oldest first, until their results reach the batch's size (at least one). */
function takeBatch(runs: ExpiredRun[]): ExpiredRun[] {
  let results = 0;
  let taken = 0;
  while (taken < runs.length && (taken === 0 || results + runs[taken].total <= RESULTS_PER_BATCH)) {
    results += runs[taken].total;
    taken++;
  }
  return runs.slice(0, taken);
}
