import { ApiError } from '../common/errors/api-error.js';
import type { Transactions } from '../database/transactions.js';
import { Organization } from './organization.entity.js';

/** Internal API: the organization named in a path must exist (404 otherwise). */
export async function requireOrganization(transactions: Transactions, id: string): Promise<void> {
  if (!(await transactions.manager.existsBy(Organization, { id })))
    throw ApiError.notFound('organization');
}

/** Internal API: the organization named in a path (404 if there is none). */
export async function findOrganization(
  transactions: Transactions,
  id: string,
): Promise<Organization> {
  const organization = await transactions.manager.findOneBy(Organization, { id });
  if (!organization) throw ApiError.notFound('organization');
  return organization;
}
