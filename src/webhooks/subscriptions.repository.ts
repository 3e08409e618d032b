import { Injectable } from '@nestjs/common';
import { type Caller, organizationOf } from '../common/caller.js';
import type { PaginationQuery } from '../common/pagination/pagination.js';
import { selectColumns } from '../database/entity-columns.js';
import { fetchPage, pagedSql } from '../database/paged-sql.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { WebhookSubscription } from './entities/webhook-subscription.entity.js';

/** Switches subscription $1 off (its receiver answered 410 Gone). */
const DEACTIVATE = sql(
  'subscriptions.deactivate',
  'UPDATE webhook_subscription SET active = false, updated_at = now() WHERE id = $1',
);

/**
 * Every column of `webhook_subscription` a read returns, by the entity's property names: all
 * but the secret (the entity's `select: false`; a test checks them).
 */
export const SUBSCRIPTION_COLUMNS = [
  'id',
  'organizationId',
  'url',
  'events',
  'description',
  'active',
  'deletedAt',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof WebhookSubscription>;

/** Live subscription $1 if it is organization $2's, or any organization's when $2 is null. */
const FIND = sql(
  'subscriptions.find',
  `SELECT ${selectColumns(SUBSCRIPTION_COLUMNS)} FROM webhook_subscription
    WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2) AND deleted_at IS NULL`,
);

/** Organization $1's live subscriptions, newest first. */
const LIST = pagedSql('subscriptions.list', {
  select: selectColumns(SUBSCRIPTION_COLUMNS),
  from: 'webhook_subscription',
  where: 'organization_id = $1 AND deleted_at IS NULL',
  orderBy: 'created_at DESC, id DESC',
});

/** How many live subscriptions organization $1 has. */
const COUNT = sql(
  'subscriptions.count',
  `SELECT count(*)::int AS n FROM webhook_subscription
    WHERE organization_id = $1 AND deleted_at IS NULL`,
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
  async page(
    organizationId: string,
    page: PaginationQuery,
  ): Promise<[WebhookSubscription[], number]> {
    const manager = this.transactions.manager;
    const [rows, total] = await fetchPage<WebhookSubscription>(
      manager,
      LIST,
      [organizationId],
      page,
    );
    return [rows.map((row) => manager.create(WebhookSubscription, row)), total];
  }

  /** A live subscription the caller may see: the organization's, or any for the operator. */
  async find(caller: Caller, id: string): Promise<WebhookSubscription | null> {
    const manager = this.transactions.manager;
    const [row]: WebhookSubscription[] = await manager.query(FIND, [id, organizationOf(caller)]);
    return row ? manager.create(WebhookSubscription, row) : null;
  }

  async count(organizationId: string): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await this.transactions.manager.query(COUNT, [
      organizationId,
    ]);
    return n;
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
