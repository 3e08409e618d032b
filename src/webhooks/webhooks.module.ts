import { Module } from '@nestjs/common';
import { DeliveriesService } from './deliveries.service.js';
import { OutboxRelay } from './outbox-relay.js';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/** Sending deliveries (shared by the API, which enqueues redeliveries, and the worker). */
@Module({ providers: [DeliveriesService], exports: [DeliveriesService] })
export class DeliveriesModule {}

/** The webhook subscription API (`APP_ROLE` api or all). */
@Module({
  imports: [DeliveriesModule],
  controllers: [WebhooksController],
  providers: [WebhooksService],
})
export class WebhooksModule {}

/** The outbox relay, the sweeper and the delivery processor (`APP_ROLE` worker or all). */
@Module({
  imports: [DeliveriesModule],
  providers: [OutboxRelay, WebhookDeliveryProcessor],
  exports: [OutboxRelay],
})
export class WebhookWorkerModule {}
