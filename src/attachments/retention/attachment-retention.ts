import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Settings } from '../../config/settings.js';
import { Transactions } from '../../database/transactions.js';
import { AttachmentStore, contentKey } from '../storage/attachment-store.js';
import { type ContentRow, contentId, RetentionRepository } from './retention.repository.js';

const EVERY_HOUR_MS = 60 * 60 * 1000;
/** Attachments one transaction deletes at most. */
const BATCH = 1_000;
/** How long an upload may stay unfinished before its content is removed (the issue: a day). */
export const ABANDONED_AFTER_HOURS = 24;

/**
 * Retention of attachments (worker role, CONTRACT §15), once an hour: attachments older than
 * `ATTACHMENT_RETENTION_DAYS` are deleted in batches, and their content with them unless
 * another attachment still uses it; attachments whose upload never completed within a day are
 * deleted with whatever content their upload left, and so is what an upload cut off by a
 * killed process left in the store (`removeUnfinished`). Every step is safe to run on several
 * replicas at once: rows are claimed with SKIP LOCKED, and removing content that is gone
 * already is no error.
 */
@Injectable()
export class AttachmentRetention implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(AttachmentRetention.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly settings: Settings,
    private readonly transactions: Transactions,
    private readonly retention: RetentionRepository,
    private readonly store: AttachmentStore,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweepLogged(), EVERY_HOUR_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One sweep: how many contents it removed from the store. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.transactions.begin(async () => {
        const gone = await this.retention.deleteExpired(
          this.settings.attachments.retentionDays,
          BATCH,
        );
        return { count: gone.length, removed: await this.removeUnused(gone) };
      });
      removed += batch.removed;
      if (batch.count < BATCH) break;
    }
    for (;;) {
      const batch = await this.transactions.begin(async () => {
        const abandoned = await this.retention.abandonedContents(ABANDONED_AFTER_HOURS, BATCH);
        if (abandoned.length > 0)
          await this.retention.deleteAbandoned(abandoned, ABANDONED_AFTER_HOURS);
        return { count: abandoned.length, removed: await this.removeUnused(abandoned) };
      });
      removed += batch.removed;
      if (batch.count < BATCH) break;
    }
    const before = new Date(Date.now() - ABANDONED_AFTER_HOURS * 60 * 60 * 1000);
    const parts = await this.store.removeUnfinished(before);
    if (parts > 0) this.logger.log(`Removed ${parts} unfinished uploads`);
    return removed;
  }

  /**
   * Deletes the attachments of runs their project's retention is deleting, in the caller's
   * transaction, and the contents no other attachment uses (the runs' foreign key would delete
   * the rows alone, and leave their contents in the store).
   */
  async deleteOfRuns(runIds: string[]): Promise<number> {
    return this.removeUnused(await this.retention.deleteOfRuns(runIds));
  }

  /**
   * Removes from the store each content no attachment uses any more, inside the transaction
   * that deleted the rows: if removing fails, the rows come back and the next sweep retries.
   */
  private async removeUnused(contents: ContentRow[]): Promise<number> {
    if (contents.length === 0) return 0;
    const unique = [...new Map(contents.map((c) => [contentId(c), c])).values()];
    const inUse = await this.retention.contentsInUse(unique);
    const unused = unique.filter((c) => !inUse.has(contentId(c)));
    for (const content of unused) {
      const { organization_id: organizationId, sha256, size } = content;
      await this.store.remove(contentKey(organizationId, { sha256, size: Number(size) }));
    }
    return unused.length;
  }

  private async sweepLogged(): Promise<void> {
    try {
      const removed = await this.sweep();
      if (removed > 0) this.logger.log(`Removed ${removed} attachment contents`);
    } catch (error) {
      this.logger.warn(`Attachment retention failed: ${String(error)}`);
    }
  }
}
