import type { Organization } from '../tenants/organization.entity.js';
import type { QuotaState } from '../tenants/quota-state.js';

/** Who is calling: the API key and its organization, resolved once per request by the guard. */
export interface ApiPrincipal {
  apiKeyId: string;
  scopes: string[];
  organization: Organization;
  /** The monthly quota after this call was counted. */
  quota: QuotaState;
}
