import { Injectable } from '@nestjs/common';
import { type Caller, tenantOf } from '../common/caller.js';
import { fetchPage, type PaginationQuery } from '../common/pagination/pagination.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { WebhookSubscription } from './entities/webhook-subscription.entity.js';

/** Switches subscription $1 off (its receiver answered 410 Gone). */
const DEACTIVATE = sql(
  'subscriptions.deactivate',
  'UPDATE webhook_subscription SET active = false, updated_at = now() WHERE id = $1',
);

/** What a new subscription is made of. */
export type NewSubscription = Pick<
  WebhookSubscription,
  'organizationId' | 'url' | 'events' | 'description' | 'secret'
>;

/** The `webhook_subscription` table; every look-up names the organization. */
@Injectable()
export class SubscriptionsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** A page of the organization's subscriptions, newest first, and how many there are. */
  page(organizationId: string, page: PaginationQuery): Promise<[WebhookSubscription[], number]> {
    const qb = this.transactions.manager
      .createQueryBuilder(WebhookSubscription, 'webhook')
      .where('webhook.organizationId = :organizationId', { organizationId })
      .orderBy('webhook.createdAt', 'DESC')
      .addOrderBy('webhook.id', 'DESC');
    return fetchPage(qb, page);
  }

  /** A live subscription the caller may see: the organization's, or any for the operator. */
  find(caller: Caller, id: string): Promise<WebhookSubscription | null> {
    return this.transactions.manager.findOneBy(WebhookSubscription, { id, ...tenantOf(caller) });
  }

  count(organizationId: string): Promise<number> {
    return this.transactions.manager.countBy(WebhookSubscription, { organizationId });
  }

  /** Inserts an active subscription. */
  insert(subscription: NewSubscription): Promise<WebhookSubscription> {
    const manager = this.transactions.manager;
    return manager.save(manager.create(WebhookSubscription, { ...subscription, active: true }));
  }

  async softDelete(organizationId: string, id: string): Promise<void> {
    await this.transactions.manager.softDelete(WebhookSubscription, { id, organizationId });
  }

  /** Switches the organization's subscription on or off, in the caller's transaction. */
  async setActive(organizationId: string, id: string, active: boolean): Promise<void> {
    await this.transactions.manager.update(WebhookSubscription, { id, organizationId }, { active });
  }

  /** Switches a subscription off, at once and on its own (the delivery worker's statement). */
  async deactivate(id: string): Promise<void> {
    await this.transactions.outside.query(DEACTIVATE, [id]);
  }
}
