import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { lockForTransaction } from '../database/advisory-locks.js';
import { Transactions } from '../database/transactions.js';
import { MONTHS_AHEAD, monthAfter, runMonthOf, type RunMonth } from '../database/run-months.js';
import { RunPartitionsRepository } from './run-partitions.repository.js';

const EVERY_HOUR_MS = 60 * 60 * 1000;

/**
 * Creates the partitions of the months ahead (worker role): at start and every hour, the
 * current month's and the next `MONTHS_AHEAD` months' partitions of `test_result` and
 * `test_run_case` exist, so a run's rows always find their month (the migration made the
 * first ones; rows that find none go to the default partition, and move into their month's
 * partition when it is made). Replicas take turns under one advisory lock; a month another
 * replica made is skipped. Nothing to install: no extension, no cron.
 */
@Injectable()
export class PartitionKeeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PartitionKeeper.name);
  private timer: NodeJS.Timeout | null = null;
  private keeping: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly transactions: Transactions,
    private readonly partitions: RunPartitionsRepository,
  ) {}

  onApplicationBootstrap(): void {
    const keep = () => {
      this.keeping = this.createAhead().catch((e: unknown) =>
        this.logger.warn(`Creating the months ahead failed: ${String(e)}`),
      );
    };
    keep();
    this.timer = setInterval(keep, EVERY_HOUR_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.keeping;
  }

  /** Makes the partitions missing from now's month to `MONTHS_AHEAD` after it: the months made. */
  async createAhead(now: Date = new Date()): Promise<RunMonth[]> {
    const made: RunMonth[] = [];
    let month = runMonthOf(now);
    for (let i = 0; i <= MONTHS_AHEAD; i++, month = monthAfter(month)) {
      const wanted = month;
      const created = await this.transactions.begin(async () => {
        await lockForTransaction(this.transactions, 'run-partitions');
        return this.partitions.create(wanted);
      });
      if (created) {
        made.push(wanted);
        this.logger.log(`Created the partitions of ${wanted.suffix}`);
      }
    }
    return made;
  }
}
