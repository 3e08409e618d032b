import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { fetchPage, type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { isoOrNull } from '../common/serialization.js';
import { lockForTransaction } from '../database/advisory-locks.js';
import { Transactions } from '../database/transactions.js';
import { EVENT_TYPE_NAMES } from '../events/event-types.js';
import type { Organization } from '../organizations/entities/organization.entity.js';
import { PLAN_WEBHOOK_LIMIT } from '../organizations/plans.js';
import { DeliveriesService } from './deliveries.service.js';
import {
  CreatedWebhookResponse,
  CreateWebhookDto,
  DeliveryQuery,
  DeliveryResponse,
  WebhookResponse,
} from './dto/webhook.dto.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookSubscription } from './entities/webhook-subscription.entity.js';
import { generateWebhookSecret } from './signing.js';

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

/** `events[i]` of a subscription: known types, or `*` alone. */
function eventTypes(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw ApiError.invalidField(
      'events',
      'events must be a non-empty array of event types, or ["*"]',
    );
  }
  value.forEach((type, i) => {
    if (typeof type !== 'string' || (type !== '*' && !EVENT_TYPE_NAMES.includes(type))) {
      throw ApiError.invalidField(
        `events[${i}]`,
        `events[${i}] must be one of ${EVENT_TYPE_NAMES.join(', ')} or *`,
      );
    }
  });
  const unique = [...new Set(value as string[])];
  return unique.includes('*') ? ['*'] : unique;
}

@Injectable()
export class WebhooksService {
  constructor(
    private readonly transactions: Transactions,
    private readonly deliveries: DeliveriesService,
  ) {}

  async list(organizationId: string, query: PaginationQuery): Promise<Page<WebhookResponse>> {
    const qb = this.transactions.manager
      .createQueryBuilder(WebhookSubscription, 'webhook')
      .where('webhook.organizationId = :organizationId', { organizationId })
      .orderBy('webhook.createdAt', 'DESC')
      .addOrderBy('webhook.id', 'DESC');
    const [subscriptions, total] = await fetchPage(qb, query);
    return toPage(subscriptions.map(toWebhookResponse), total, query);
  }

  async create(organization: Organization, dto: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    const events = eventTypes(dto.events);
    const problem = await this.deliveries.policy.problemWith(dto.url);
    if (problem) throw ApiError.invalidField('url', problem);
    return this.transactions.run(async (manager) => {
      const limit = PLAN_WEBHOOK_LIMIT[organization.plan];
      if (limit !== null) {
        // Serializes creations per organization, so two at once cannot both take the last place.
        await lockForTransaction(this.transactions, `webhooks:${organization.id}`);
        const count = await manager.countBy(WebhookSubscription, {
          organizationId: organization.id,
        });
        if (count >= limit) {
          throw new ApiError(
            403,
            ErrorCode.PlanLimitReached,
            `Your plan allows ${limit} webhook endpoints; delete one or upgrade to Enterprise.`,
            { limit },
          );
        }
      }
      const secret = generateWebhookSecret();
      const saved = await manager.save(
        manager.create(WebhookSubscription, {
          organizationId: organization.id,
          url: dto.url,
          events,
          description: dto.description ?? null,
          secret,
          active: true,
        }),
      );
      return { ...toWebhookResponse(saved), secret };
    });
  }

  /** Deletes a subscription and stops its pending retries. */
  async delete(organizationId: string, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      await this.find(organizationId, id);
      await manager.softDelete(WebhookSubscription, { id, organizationId });
      await manager.query(
        `UPDATE webhook_delivery SET status = 'failed', next_attempt_at = NULL, updated_at = now()
          WHERE subscription_id = $1 AND status = 'pending'`,
        [id],
      );
    });
  }

  async listDeliveries(
    organizationId: string,
    id: string,
    query: DeliveryQuery,
  ): Promise<Page<DeliveryResponse>> {
    await this.find(organizationId, id);
    const qb = this.transactions.manager
      .createQueryBuilder(WebhookDelivery, 'delivery')
      .where('delivery.subscriptionId = :id', { id });
    if (query.status) qb.andWhere('delivery.status = :status', { status: query.status });
    if (query.event_type) qb.andWhere('delivery.eventType = :type', { type: query.event_type });
    qb.orderBy('delivery.createdAt', 'DESC').addOrderBy('delivery.id', 'DESC');
    const [deliveries, total] = await fetchPage(qb, query);
    return toPage(deliveries.map(toDeliveryResponse), total, query);
  }

  /** A new delivery of the same event (same event id) to the same subscription. */
  async redeliver(
    organizationId: string,
    id: string,
    deliveryId: string,
  ): Promise<DeliveryResponse> {
    const created = await this.transactions.run(async (manager) => {
      await this.find(organizationId, id);
      const original = await manager.findOneBy(WebhookDelivery, {
        id: deliveryId,
        subscriptionId: id,
      });
      if (!original) throw ApiError.notFound('delivery');
      return manager.save(
        manager.create(WebhookDelivery, {
          organizationId,
          subscriptionId: id,
          eventId: original.eventId,
          eventType: original.eventType,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: new Date(),
          attemptLog: [],
        }),
      );
    });
    await this.deliveries.enqueue({ deliveryId: created.id, attempt: 1 });
    return toDeliveryResponse(created);
  }

  private async find(organizationId: string, id: string): Promise<WebhookSubscription> {
    const subscription = await this.transactions.manager.findOneBy(WebhookSubscription, {
      id,
      organizationId,
    });
    if (!subscription) throw ApiError.notFound('webhook');
    return subscription;
  }
}
