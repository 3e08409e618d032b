import { Injectable } from '@nestjs/common';
import type { ApiPrincipal } from '../routes/api-principal.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { Transactions } from '../database/transactions.js';
import { MonthlyQuotaService } from '../limits/monthly-quota.service.js';
import type { QuotaState } from '../tenants/quota-state.js';
import {
  CreateOrganizationDto,
  OrganizationResponse,
  UpdateOrganizationDto,
} from './dto/organization.dto.js';
import { Organization } from '../tenants/organization.entity.js';
import { OrganizationsRepository } from './organizations.repository.js';
import { PLAN_WEBHOOK_LIMIT } from '../tenants/plans.js';
import { findOrganization } from '../tenants/require-organization.js';

export function toOrganizationResponse(org: Organization, quota: QuotaState): OrganizationResponse {
  return {
    id: org.id,
    name: org.name,
    plan: org.plan,
    subscription_started_at: org.subscriptionStartedAt.toISOString(),
    monthly_call_limit: quota.limit,
    calls_this_period: quota.used,
    period_reset_at: quota.resetAt.toISOString(),
    webhook_limit: PLAN_WEBHOOK_LIMIT[org.plan],
    created_at: org.createdAt.toISOString(),
    updated_at: org.updatedAt.toISOString(),
  };
}

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly quota: MonthlyQuotaService,
    private readonly transactions: Transactions,
    private readonly organizations: OrganizationsRepository,
  ) {}

  /** `GET /organizations`: a key sees its own organization and nothing else. */
  listForPrincipal(principal: ApiPrincipal, query: PaginationQuery): Page<OrganizationResponse> {
    const own = [toOrganizationResponse(principal.organization, principal.quota)];
    return toPage(own.slice(query.offset, query.offset + query.limit), own.length, query);
  }

  async create(dto: CreateOrganizationDto): Promise<OrganizationResponse> {
    const saved = await this.transactions.run(() =>
      this.organizations.insert({
        name: dto.name,
        plan: dto.plan,
        subscriptionStartedAt: dto.subscription_started_at
          ? new Date(dto.subscription_started_at)
          : new Date(),
        monthlyCallLimit: dto.monthly_call_limit ?? null,
      }),
    );
    return this.respond(saved);
  }

  async list(query: PaginationQuery): Promise<Page<OrganizationResponse>> {
    const [orgs, total] = await this.organizations.page(query);
    const quotas = await this.quota.peekMany(orgs);
    return toPage(
      orgs.map((org, i) => toOrganizationResponse(org, quotas[i])),
      total,
      query,
    );
  }

  async get(id: string): Promise<OrganizationResponse> {
    return this.respond(await this.find(id));
  }

  async update(id: string, dto: UpdateOrganizationDto): Promise<OrganizationResponse> {
    const org = await this.find(id);
    if (dto.name !== undefined) org.name = dto.name;
    if (dto.plan !== undefined) org.plan = dto.plan;
    if (dto.monthly_call_limit !== undefined) org.monthlyCallLimit = dto.monthly_call_limit;
    return this.respond(await this.transactions.run(() => this.organizations.save(org)));
  }

  private find(id: string): Promise<Organization> {
    return findOrganization(this.transactions, id);
  }

  private async respond(org: Organization): Promise<OrganizationResponse> {
    return toOrganizationResponse(org, await this.quota.peek(org));
  }
}
