import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { Transactions } from '../database/transactions.js';
import type { RetentionResponse, UpdateRetentionDto } from './dto/retention.dto.js';
import { RunRetentionRepository, type RetentionRow } from './retention.repository.js';

/** A project's retention setting, read and changed through the internal API. */
@Injectable()
export class RetentionService {
  constructor(
    private readonly transactions: Transactions,
    private readonly retention: RunRetentionRepository,
  ) {}

  async read(projectId: string): Promise<RetentionResponse> {
    return responseOf(await this.retention.read(projectId));
  }

  update(projectId: string, dto: UpdateRetentionDto): Promise<RetentionResponse> {
    return this.transactions.run(async () =>
      responseOf(await this.retention.update(projectId, dto.retention_days)),
    );
  }
}

function responseOf(row: RetentionRow | null): RetentionResponse {
  if (!row) throw ApiError.notFound('project');
  return { project_id: row.id, retention_days: row.retention_days };
}
