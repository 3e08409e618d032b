import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { Organization } from './entities/organization.entity.js';

/** Internal API: the organization named in a path must exist (404 otherwise). */
export async function requireOrganization(manager: EntityManager, id: string): Promise<void> {
  if (!(await manager.existsBy(Organization, { id }))) throw ApiError.notFound('organization');
}
