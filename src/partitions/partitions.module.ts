import { Module } from '@nestjs/common';
import { PartitionKeeper } from './partition-keeper.js';
import { RunPartitionsRepository } from './run-partitions.repository.js';

/** The month partitions of results: which exist, dropping one (for retention). */
@Module({
  providers: [RunPartitionsRepository],
  exports: [RunPartitionsRepository],
})
export class RunPartitionsModule {}

/** The worker that creates the months ahead (worker role). */
@Module({
  imports: [RunPartitionsModule],
  providers: [PartitionKeeper],
  exports: [PartitionKeeper],
})
export class PartitionKeeperModule {}
