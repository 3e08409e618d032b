import type { Transactions } from '../database/transactions.js';
import { arrayLiteral, copyInto, copyLines, copyText } from '../database/copy.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';

// The two ways a batch creates cases: fast, believing them new, and careful, when some exist.

/** A case a batch creates: its automation id (`name`), the id chosen for it, its title and section. */
export interface NewCase {
  name: string;
  id: string;
  title: string;
  section: string | null;
}

const UNIQUE_VIOLATION = '23505';

/**
 * Loads `cases` (sorted by name, believed new) with COPY under a savepoint and returns them;
 * or null, having loaded none, when one of them exists after all (a unique violation).
 */
export async function loadCases(
  transactions: Transactions,
  run: TestRun,
  cases: NewCase[],
): Promise<NewCase[] | null> {
  const manager = transactions.manager;
  await manager.query('SAVEPOINT create_cases');
  try {
    await copyInto(
      transactions,
      'test_case',
      'id, organization_id, project_id, title, automation_id, section',
      copyLines(
        cases,
        (c) =>
          `${c.id}\t${run.organizationId}\t${run.projectId}\t${copyText(c.title)}\t${copyText(
            c.name,
          )}\t${copyText(c.section)}\n`,
      ),
    );
    await manager.query('RELEASE SAVEPOINT create_cases');
    return cases;
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    await manager.query('ROLLBACK TO SAVEPOINT create_cases');
    return null;
  }
}

/**
 * Inserts `cases` (sorted by name), skipping any that exists (or that a concurrent batch is
 * creating: we wait for it), and returns those inserted.
 */
export async function insertCases(
  transactions: Transactions,
  run: TestRun,
  cases: NewCase[],
): Promise<NewCase[]> {
  const manager = transactions.manager;
  if (cases.length === 0) return [];
  const rows: Array<{ automation_id: string }> = await manager.query(
    `INSERT INTO test_case (id, organization_id, project_id, title, automation_id, section)
     SELECT x.id, $1, $2, x.title, x.automation_id, x.section
       FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[])
            WITH ORDINALITY AS x(id, automation_id, title, section, n)
      ORDER BY x.n
     ON CONFLICT (project_id, automation_id) DO NOTHING
     RETURNING automation_id`,
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
