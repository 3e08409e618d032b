import { Injectable } from '@nestjs/common';
import { arrayLiteral, copyInto, copyLines, copyText } from '../database/copy.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';

/** A case a batch creates: its automation id (`name`), the id chosen for it, its title and section. */
export interface NewCase {
  name: string;
  id: string;
  title: string;
  section: string | null;
}

const UNIQUE_VIOLATION = '23505';

/** Those of ids $2 that name a case of project $1. */
const KNOWN_CASE_IDS = sql(
  'results.knownCaseIds',
  'SELECT id FROM test_case WHERE project_id = $1 AND id = ANY($2::uuid[])',
);

/** The cases of project $1 with automation ids $2. */
const CASES_BY_AUTOMATION_ID = sql(
  'results.casesByAutomationId',
  'SELECT id, automation_id FROM test_case WHERE project_id = $1 AND automation_id = ANY($2::text[])',
);

/** New cases are loaded under it: one that exists after all undoes them all. */
const SAVEPOINT_NEW_CASES = sql('results.savepointNewCases', 'SAVEPOINT create_cases');
const KEEP_NEW_CASES = sql('results.keepNewCases', 'RELEASE SAVEPOINT create_cases');
const UNDO_NEW_CASES = sql('results.undoNewCases', 'ROLLBACK TO SAVEPOINT create_cases');

const COPY_NEW_CASES = sql(
  'results.copyNewCases',
  'COPY test_case (id, organization_id, project_id, title, automation_id, section) FROM STDIN',
);

/** Inserts the cases, skipping (after waiting for a concurrent creator) those that exist. */
const INSERT_NEW_CASES = sql(
  'results.insertNewCases',
  `INSERT INTO test_case (id, organization_id, project_id, title, automation_id, section)
     SELECT x.id, $1, $2, x.title, x.automation_id, x.section
       FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[])
            WITH ORDINALITY AS x(id, automation_id, title, section, n)
      ORDER BY x.n
     ON CONFLICT (project_id, automation_id) DO NOTHING
     RETURNING automation_id`,
);

/**
 * The SQL of the test cases a result batch names or creates, on the current transaction.
 * (The two ways a batch creates cases: fast, believing them new, and careful, when some exist.)
 */
@Injectable()
export class ResultCasesRepository {
  constructor(private readonly transactions: Transactions) {}

  /** Those of `ids` that name a case of the project. */
  async knownIds(projectId: string, ids: string[]): Promise<Array<{ id: string }>> {
    return this.transactions.manager.query(KNOWN_CASE_IDS, [projectId, arrayLiteral(ids)]);
  }

  /** The project's cases with these automation ids. */
  async byAutomationId(
    projectId: string,
    automationIds: string[],
  ): Promise<Array<{ id: string; automation_id: string }>> {
    return this.transactions.manager.query(CASES_BY_AUTOMATION_ID, [
      projectId,
      arrayLiteral(automationIds),
    ]);
  }

  /**
   * Loads `cases` (sorted by name, believed new) with COPY under a savepoint and returns them;
   * or null, having loaded none, when one of them exists after all (a unique violation).
   */
  async load(run: TestRun, cases: NewCase[]): Promise<NewCase[] | null> {
    const manager = this.transactions.manager;
    await manager.query(SAVEPOINT_NEW_CASES);
    try {
      await copyInto(
        this.transactions,
        COPY_NEW_CASES,
        copyLines(
          cases,
          (c) =>
            `${c.id}\t${run.organizationId}\t${run.projectId}\t${copyText(c.title)}\t${copyText(
              c.name,
            )}\t${copyText(c.section)}\n`,
        ),
      );
      await manager.query(KEEP_NEW_CASES);
      return cases;
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await manager.query(UNDO_NEW_CASES);
      return null;
    }
  }

  /**
   * Inserts `cases` (sorted by name), skipping any that exists (or that a concurrent batch is
   * creating: we wait for it), and returns those inserted.
   */
  async insert(run: TestRun, cases: NewCase[]): Promise<NewCase[]> {
    if (cases.length === 0) return [];
    const rows: Array<{ automation_id: string }> = await this.transactions.manager.query(
      INSERT_NEW_CASES,
      [
        run.organizationId,
        run.projectId,
        arrayLiteral(cases.map((c) => c.id)),
        arrayLiteral(cases.map((c) => c.name)),
        arrayLiteral(cases.map((c) => c.title)),
        arrayLiteral(cases.map((c) => c.section)),
      ],
    );
    const inserted = new Set(rows.map((row) => row.automation_id));
    return cases.filter((c) => inserted.has(c.name));
  }
}
