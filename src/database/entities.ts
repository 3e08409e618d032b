import { ApiKey } from '../auth/entities/api-key.entity.js';
import { OrganizationUsage } from '../limits/entities/organization-usage.entity.js';
import { Organization } from '../organizations/entities/organization.entity.js';

/** Every TypeORM entity of the service; the app and the migration CLI share this list. */
export const ENTITIES: Array<new () => object> = [Organization, ApiKey, OrganizationUsage];
