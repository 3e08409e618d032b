import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { WEBHOOK_DELIVERY_QUEUE } from '../queues/queues.constants.js';
import { DeliveriesService, type DeliveryJob } from './deliveries.service.js';

/** Webhook deliveries are I/O-bound: many in flight per worker. */
const CONCURRENCY = 64;

@Processor(WEBHOOK_DELIVERY_QUEUE)
export class WebhookDeliveryProcessor {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Process({ concurrency: CONCURRENCY })
  async deliver(job: Job<DeliveryJob>): Promise<void> {
    await this.deliveries.attempt(job.data.deliveryId);
  }
}
