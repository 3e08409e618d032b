import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { isoOrNull } from '../common/serialization.js';
import { lockForTransaction } from '../database/advisory-locks.js';
import { Transactions } from '../database/transactions.js';
import type { Organization } from '../tenants/organization.entity.js';
import { PLAN_WEBHOOK_LIMIT } from '../tenants/plans.js';
import { findOrganization, requireOrganization } from '../tenants/require-organization.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveriesService } from './deliveries.service.js';
import type { CreateWebhookCommand } from './dto/create-webhook.command.js';
import {
  CreatedWebhookResponse,
  DeliveryQuery,
  DeliveryResponse,
  InternalWebhookResponse,
  WebhookResponse,
} from './dto/webhook.dto.js';
import type { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import type { WebhookSubscription } from './entities/webhook-subscription.entity.js';
import { generateWebhookSecret } from './signing.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';

export function toWebhookResponse(subscription: WebhookSubscription): WebhookResponse {
  return {
    id: subscription.id,
    url: subscription.url,
    events: subscription.events,
    description: subscription.description,
    active: subscription.active,
    created_at: subscription.createdAt.toISOString(),
  };
}

export function toDeliveryResponse(delivery: WebhookDelivery): DeliveryResponse {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: isoOrNull(delivery.nextAttemptAt),
    attempt_log: delivery.attemptLog,
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
  };
}

@Injectable()
export class WebhooksService {
  constructor(
    private readonly transactions: Transactions,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly deliveries: DeliveriesService,
  ) {}

  async list(organizationId: string, query: PaginationQuery): Promise<Page<WebhookResponse>> {
    const [subscriptions, total] = await this.subscriptions.page(organizationId, query);
    return toPage(subscriptions.map(toWebhookResponse), total, query);
  }

  async create(
    organization: Organization,
    command: CreateWebhookCommand,
  ): Promise<CreatedWebhookResponse> {
    const problem = await this.deliveries.policy.problemWith(command.url);
    if (problem) throw ApiError.invalidField('url', problem);
    return this.transactions.run(async () => {
      const limit = PLAN_WEBHOOK_LIMIT[organization.plan];
      if (limit !== null) {
        // Serializes creations per organization, so two at once cannot both take the last place.
        await lockForTransaction(this.transactions, `webhooks:${organization.id}`);
        if ((await this.subscriptions.count(organization.id)) >= limit) {
          throw new ApiError(
            403,
            ErrorCode.PlanLimitReached,
            `Your plan allows ${limit} webhook endpoints; delete one or upgrade to Enterprise.`,
            { limit },
          );
        }
      }
      const secret = generateWebhookSecret();
      const saved = await this.subscriptions.insert({
        organizationId: organization.id,
        url: command.url,
        events: command.events,
        description: command.description,
        secret,
      });
      return { ...toWebhookResponse(saved), secret };
    });
  }

  /** Deletes a subscription and stops its pending retries. */
  async delete(caller: Caller, id: string): Promise<void> {
    await this.transactions.run(async () => {
      const { organizationId } = await this.find(caller, id);
      await this.subscriptions.softDelete(organizationId, id);
      await this.deliveryRows.cancelPending(id);
    });
  }

  async listDeliveries(
    caller: Caller,
    id: string,
    query: DeliveryQuery,
  ): Promise<Page<DeliveryResponse>> {
    await this.find(caller, id);
    const filter = { status: query.status, eventType: query.event_type };
    const [deliveries, total] = await this.deliveryRows.page(id, filter, query);
    return toPage(deliveries.map(toDeliveryResponse), total, query);
  }

  /**
   * A new delivery of the same event (same event id) to the same subscription; a delivery still
   * pending is sent no more.
   */
  async redeliver(caller: Caller, id: string, deliveryId: string): Promise<DeliveryResponse> {
    const created = await this.transactions.run(async () => {
      const { organizationId } = await this.find(caller, id);
      const original = await this.deliveryRows.find(id, deliveryId);
      if (!original) throw ApiError.notFound('delivery');
      // The receiver gets the event from the new delivery alone (CONTRACT §7).
      await this.deliveryRows.endRetries(organizationId, original.id);
      return this.deliveryRows.insertRedelivery(organizationId, original);
    });
    await this.deliveries.enqueue({ deliveryId: created.id, attempt: 1 });
    return toDeliveryResponse(created);
  }

  /* The internal API's entries for an organization named in the path. */

  async listInOrganization(
    organizationId: string,
    query: PaginationQuery,
  ): Promise<Page<WebhookResponse>> {
    await requireOrganization(this.transactions, organizationId);
    return this.list(organizationId, query);
  }

  async createInOrganization(
    organizationId: string,
    command: CreateWebhookCommand,
  ): Promise<CreatedWebhookResponse> {
    return this.create(await findOrganization(this.transactions, organizationId), command);
  }

  /** A subscription with its organization. */
  async get(caller: Caller, id: string): Promise<InternalWebhookResponse> {
    const subscription = await this.find(caller, id);
    return { ...toWebhookResponse(subscription), organization_id: subscription.organizationId };
  }

  /** Switches a subscription on or off; on again, it receives the events from then on. */
  async setActive(caller: Caller, id: string, active: boolean): Promise<WebhookResponse> {
    return this.transactions.run(async () => {
      const subscription = await this.find(caller, id);
      await this.subscriptions.setActive(subscription.organizationId, id, active);
      return toWebhookResponse({ ...subscription, active });
    });
  }

  /** The subscription if the caller may see it; 404 otherwise (no existence leaks). */
  private async find(caller: Caller, id: string): Promise<WebhookSubscription> {
    const subscription = await this.subscriptions.find(caller, id);
    if (!subscription) throw ApiError.notFound('webhook');
    return subscription;
  }
}
