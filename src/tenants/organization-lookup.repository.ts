import { selectColumns } from '../database/entity-columns.js';
import { sql } from '../database/sql.js';
import type { Transactions } from '../database/transactions.js';
import { Organization } from './organization.entity.js';

/** Every column of `organization`, by the entity's property names (a test checks them). */
export const ORGANIZATION_COLUMNS = [
  'id',
  'name',
  'plan',
  'subscriptionStartedAt',
  'monthlyCallLimit',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof Organization>;

/** Whether organization $1 exists. */
const EXISTS = sql(
  'organizations.exists',
  'SELECT EXISTS (SELECT 1 FROM organization WHERE id = $1) AS "exists"',
);

/** Organization $1. */
const FIND = sql(
  'organizations.find',
  `SELECT ${selectColumns(ORGANIZATION_COLUMNS)} FROM organization WHERE id = $1`,
);

/*
 * The organization named in an internal route's path, read by the services of every module that
 * has such routes. Functions of `Transactions` rather than a provider: `tenants/` is below every
 * feature and has no module of its own.
 */

/** Whether the organization exists, in the caller's transaction. */
export async function organizationExists(transactions: Transactions, id: string): Promise<boolean> {
  const [row]: Array<{ exists: boolean }> = await transactions.manager.query(EXISTS, [id]);
  return row.exists;
}

/** The organization, or null if there is none, in the caller's transaction. */
export async function findOrganizationRow(
  transactions: Transactions,
  id: string,
): Promise<Organization | null> {
  const manager = transactions.manager;
  const [row]: Organization[] = await manager.query(FIND, [id]);
  return row ? manager.create(Organization, row) : null;
}
