import { ApiError } from '../common/errors/api-error.js';
import type { Transactions } from '../database/transactions.js';
import type { Organization } from './organization.entity.js';
import { findOrganizationRow, organizationExists } from './organization-lookup.repository.js';

/** Internal API: the organization named in a path must exist (404 otherwise). */
export async function requireOrganization(transactions: Transactions, id: string): Promise<void> {
  if (!(await organizationExists(transactions, id))) throw ApiError.notFound('organization');
}

/** Internal API: the organization named in a path (404 if there is none). */
export async function findOrganization(
  transactions: Transactions,
  id: string,
): Promise<Organization> {
  const organization = await findOrganizationRow(transactions, id);
  if (!organization) throw ApiError.notFound('organization');
  return organization;
}
