import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { ResultStatus } from './entities/result-status.js';

/** How many of a run's results one statement of an export reads. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * A page of run $1's current results (of organization $2), each slot after slot ($3, $4) in
 * the key's order (none: from the first), at most $5: each slot's row of `test_run_case` read
 * by the run's part of its primary key (materialized: the page's rows name their run, so each
 * result is one probe of its month's key, whatever the planner knows of the run), its result
 * and its case each by their own key. Keyset
 * pages: each statement starts where the last ended and reads only its page, so an export of
 * any size costs a page's memory, and holds no connection while the client reads.
 */
const EXPORT_PAGE = sql(
  'results.exportPage',
  `WITH page AS MATERIALIZED (
     SELECT c.test_run_id, c.test_case_id, c.configuration, c.result_id
       FROM test_run_case c
      WHERE c.test_run_id = $1
        AND ($3::uuid IS NULL OR (c.test_case_id, c.configuration) > ($3::uuid, $4::varchar))
      ORDER BY c.test_case_id, c.configuration
      LIMIT $5
   )
   SELECT c.test_case_id, c.configuration, tc.automation_id, tc.title,
          r.id AS result_id, r.status, r.duration_ms, r.retries, r.flaky, r.failure_type,
          r.message, r.defects, r.executed_at, r.created_at
     FROM page c
     JOIN test_result r
       ON r.id = c.result_id AND r.test_run_id = c.test_run_id AND r.organization_id = $2
     JOIN test_case tc ON tc.id = c.test_case_id AND tc.organization_id = $2
    ORDER BY c.test_case_id, c.configuration`,
);

/** A current result as the export writes it. */
export interface ExportedResult {
  test_case_id: string;
  configuration: string;
  automation_id: string | null;
  title: string;
  result_id: string;
  status: ResultStatus;
  duration_ms: number | null;
  retries: number;
  flaky: boolean;
  failure_type: string | null;
  message: string | null;
  defects: string[];
  executed_at: Date | null;
  created_at: Date;
}

/** A run's current results read for an export, a page at a time (`results.exportPage`). */
@Injectable()
export class ResultsExportRepository {
  constructor(private readonly transactions: Transactions) {}

  /** The run's current results in pages of `EXPORT_PAGE_SIZE`, each read when asked for. */
  async *pages(
    organizationId: string,
    runId: string,
    pageSize = EXPORT_PAGE_SIZE,
  ): AsyncGenerator<ExportedResult[]> {
    let after: { testCaseId: string; configuration: string } | null = null;
    for (;;) {
      const rows: ExportedResult[] = await this.transactions.manager.query(EXPORT_PAGE, [
        runId,
        organizationId,
        after?.testCaseId ?? null,
        after?.configuration ?? null,
        pageSize,
      ]);
      if (rows.length > 0) yield rows;
      if (rows.length < pageSize) return;
      const last = rows[rows.length - 1];
      after = { testCaseId: last.test_case_id, configuration: last.configuration };
    }
  }
}
