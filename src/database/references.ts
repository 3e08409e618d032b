import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { Transactions } from './transactions.js';
import { ApiError } from '../common/errors/api-error.js';

/**
 * Checks that an id given in a body or query names a row of the caller's organization:
 * unknown and foreign ids alike are 400 naming the field (CONTRACT §5b), never a leak. Each
 * module's look-up (`ProjectLookup`, `ReleaseLookup`, `BuildLookup`) runs it on its own
 * entity; other modules ask the look-up.
 */
export async function requireReference<
  T extends ObjectLiteral & { id: string; organizationId: string },
>(
  transactions: Transactions,
  entity: EntityTarget<T>,
  organizationId: string,
  id: string,
  field: string,
): Promise<T> {
  const found = await transactions.manager.findOne(entity, {
    where: { id, organizationId } as never,
  });
  if (!found)
    throw ApiError.invalidField(field, `${field} does not name a resource of this organization`);
  return found;
}
