import { Module } from '@nestjs/common';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveriesService } from './deliveries.service.js';
import { OutboxRelay } from './outbox-relay.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksInternalController } from './webhooks.internal.controller.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Webhooks in both roles: the tables and sending deliveries. The API enqueues redeliveries
 * with it, the worker sends every attempt.
 */
@Module({
  providers: [DeliveriesService, DeliveriesRepository, SubscriptionsRepository],
  exports: [DeliveriesService, DeliveriesRepository, SubscriptionsRepository],
})
export class WebhookDeliveriesModule {}

/**
 * The webhook subscription API: `/webhooks` and their deliveries, and the console's internal
 * routes to them (`APP_ROLE` api or all).
 */
@Module({
  imports: [WebhookDeliveriesModule],
  controllers: [WebhooksController, WebhooksInternalController],
  providers: [WebhooksService],
})
export class WebhooksHttpModule {}

/** The outbox relay, the sweeper and the delivery processor (`APP_ROLE` worker or all). */
@Module({
  imports: [WebhookDeliveriesModule],
  providers: [OutboxRelay, WebhookDeliveryProcessor],
  exports: [OutboxRelay],
})
export class WebhookWorkerModule {}
