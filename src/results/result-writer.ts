import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { RESULT_STATUSES, type ResultStatus } from './entities/test-result.entity.js';
import type { ResultItem } from './result-items.js';

/** A stored result as the database returns it. */
export interface StoredResult {
  id: string;
  test_run_id: string;
  test_case_id: string;
  status: ResultStatus;
  duration_ms: number | null;
  message: string | null;
  defects: string[];
  retries: number;
  flaky: boolean;
  executed_at: Date | null;
  created_at: Date;
  seq: string;
}

export interface WrittenBatch {
  results: StoredResult[];
  createdTestCases: number;
}

type Counts = Record<ResultStatus | 'flaky' | 'total', number>;

function emptyCounts(): Counts {
  return {
    total: 0,
    passed: 0,
    failed: 0,
    blocked: 0,
    skipped: 0,
    retest: 0,
    untested: 0,
    flaky: 0,
  };
}

/**
 * The set-based write path of results: a whole batch in a constant number of statements
 * (resolve ids, create missing cases, retire previous current results, insert all results,
 * update the run's counts), inside the caller's transaction. The caller holds the run's row
 * lock, so batches into one run (parallel CI shards) apply one after another and the counts
 * stay exact.
 */
@Injectable()
export class ResultWriter {
  async write(
    manager: EntityManager,
    run: TestRun,
    items: ResultItem[],
    caseField: (index: number) => string = (i) => `results[${i}].test_case_id`,
  ): Promise<WrittenBatch> {
    const [caseIds, createdTestCases] = await this.resolveCases(manager, run, items, caseField);

    // The last item for a case in this batch becomes its current result.
    const lastIndex = new Map<string, number>();
    caseIds.forEach((caseId, i) => lastIndex.set(caseId, i));
    const distinctCases = [...lastIndex.keys()];

    // TypeORM answers an UPDATE with [rows, affected].
    const [retired]: [Array<{ status: ResultStatus; flaky: boolean }>, number] =
      await manager.query(
        `UPDATE test_result SET is_current = false
        WHERE test_run_id = $1 AND is_current AND test_case_id = ANY($2::uuid[])
        RETURNING status, flaky`,
        [run.id, distinctCases],
      );

    const rows = items.map((item, i) => ({
      ord: i,
      test_case_id: caseIds[i],
      status: item.status,
      duration_ms: item.durationMs,
      message: item.message,
      defects: item.defects,
      retries: item.retries,
      flaky: item.status === 'passed' && item.retries > 0,
      is_current: lastIndex.get(caseIds[i]) === i,
      executed_at: item.executedAt,
    }));
    const inserted: StoredResult[] = await manager.query(
      `INSERT INTO test_result (organization_id, test_run_id, test_case_id, status, duration_ms, message,
                                defects, retries, flaky, is_current, executed_at)
       SELECT $1, $2, x.test_case_id, x.status, x.duration_ms, x.message, coalesce(x.defects, '{}'),
              x.retries, x.flaky, x.is_current, x.executed_at
         FROM jsonb_to_recordset($3::jsonb) AS x(ord int, test_case_id uuid, status result_status,
              duration_ms int, message text, defects text[], retries int, flaky boolean,
              is_current boolean, executed_at timestamptz)
        ORDER BY x.ord
       RETURNING id, test_run_id, test_case_id, status, duration_ms, message, defects, retries, flaky,
                 executed_at, created_at, seq`,
      [run.organizationId, run.id, JSON.stringify(rows)],
    );
    inserted.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
    // Events: `testcase.failed.v1` for every inserted `failed` result is written here, in this transaction.

    const delta = emptyCounts();
    for (const row of rows) {
      if (!row.is_current) continue;
      delta.total++;
      delta[row.status]++;
      if (row.flaky) delta.flaky++;
    }
    for (const old of retired) {
      delta.total--;
      delta[old.status]--;
      if (old.flaky) delta.flaky--;
    }
    await this.addCounts(manager, run, delta);
    return { results: inserted, createdTestCases };
  }

  /** Case ids for every item; cases named by an unknown automation id are created. */
  private async resolveCases(
    manager: EntityManager,
    run: TestRun,
    items: ResultItem[],
    caseField: (index: number) => string,
  ): Promise<[string[], number]> {
    const byId = [...new Set(items.flatMap((item) => (item.testCaseId ? [item.testCaseId] : [])))];
    if (byId.length > 0) {
      const found: Array<{ id: string }> = await manager.query(
        'SELECT id FROM test_case WHERE project_id = $1 AND id = ANY($2::uuid[])',
        [run.projectId, byId],
      );
      const known = new Set(found.map((row) => row.id));
      const missing = items.findIndex(
        (item) => item.testCaseId !== null && !known.has(item.testCaseId),
      );
      if (missing >= 0) {
        const field = caseField(missing);
        throw ApiError.invalidField(
          field,
          `${field} does not name a test case of the run's project`,
        );
      }
    }

    const firstByAutomationId = new Map<string, ResultItem>();
    for (const item of items) {
      if (item.automationId !== null && !firstByAutomationId.has(item.automationId)) {
        firstByAutomationId.set(item.automationId, item);
      }
    }
    let created = 0;
    const idByAutomationId = new Map<string, string>();
    if (firstByAutomationId.size > 0) {
      // Sorted, so concurrent batches creating the same new cases lock them in the same order.
      const wanted = [...firstByAutomationId.values()]
        .map((item) => ({
          automation_id: item.automationId,
          title: item.title,
          section: item.section,
        }))
        .sort((a, b) => ((a.automation_id ?? '') < (b.automation_id ?? '') ? -1 : 1));
      const inserted: unknown[] = await manager.query(
        `INSERT INTO test_case (organization_id, project_id, title, automation_id, section)
         SELECT $1, $2, coalesce(x.title, x.automation_id), x.automation_id, x.section
           FROM jsonb_to_recordset($3::jsonb) AS x(automation_id text, title text, section text)
          ORDER BY x.automation_id
         ON CONFLICT (project_id, automation_id) DO NOTHING
         RETURNING id`,
        [run.organizationId, run.projectId, JSON.stringify(wanted)],
      );
      created = inserted.length;
      const all: Array<{ id: string; automation_id: string }> = await manager.query(
        'SELECT id, automation_id FROM test_case WHERE project_id = $1 AND automation_id = ANY($2::text[])',
        [run.projectId, [...firstByAutomationId.keys()]],
      );
      for (const row of all) idByAutomationId.set(row.automation_id, row.id);
    }
    const caseIds = items.map(
      (item) => item.testCaseId ?? (idByAutomationId.get(item.automationId as string) as string),
    );
    return [caseIds, created];
  }

  private async addCounts(manager: EntityManager, run: TestRun, delta: Counts): Promise<void> {
    const columns = ['total', ...RESULT_STATUSES, 'flaky'] as const;
    await manager.query(
      `UPDATE test_run SET ${columns.map((c, i) => `${c} = ${c} + $${i + 2}`).join(', ')}, updated_at = now()
        WHERE id = $1`,
      [run.id, ...columns.map((c) => delta[c])],
    );
    for (const column of columns) run[column] += delta[column];
  }
}
