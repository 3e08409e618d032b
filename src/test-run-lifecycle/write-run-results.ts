import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { ResultItem } from '../results/result-items.js';
import { ResultWriter, type WriteOptions, type WrittenBatch } from '../results/result-writer.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { MoveTestRun } from './move-test-run.js';

export interface WriteRunResultsCommand {
  /** Locked by the caller: exclusively when `complete`, else shared. */
  run: TestRun;
  items: ResultItem[];
  complete: boolean;
  options?: WriteOptions;
}

/** A batch of results into a run not completed (409 otherwise), then completing it if asked. */
@Injectable()
export class WriteRunResults {
  constructor(
    private readonly writer: ResultWriter,
    private readonly move: MoveTestRun,
  ) {}

  async execute({ run, items, complete, options }: WriteRunResultsCommand): Promise<WrittenBatch> {
    if (run.status === 'completed') {
      throw ApiError.conflict(
        'run_completed',
        'The test run is completed and takes no more results.',
      );
    }
    const written = await this.writer.write(run, items, options);
    if (complete) await this.move.execute({ run, status: 'completed' });
    return written;
  }
}
