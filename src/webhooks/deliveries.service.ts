import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, type OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Queue } from 'bull';
import { Settings } from '../config/settings.js';
import { withTimeout } from '../common/with-timeout.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../queues/queues.constants.js';
import { AddressPolicy, HOST_LOOKUP, type HostLookup } from './address-policy.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import type { AttemptLogEntry } from './entities/webhook-delivery.entity.js';
import { MAX_ATTEMPTS, retryDelayMs } from './retry-schedule.js';
import { signDelivery } from './signing.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { WebhookSender } from './webhook-sender.js';

export interface DeliveryJob {
  deliveryId: string;
  attempt: number;
}

/** A delivery is held this much longer than the send time limit by the worker sending it. */
const LEASE_MARGIN_MS = 5_000;
const ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * Sends delivery attempts and records them. The database row is the truth: an attempt is
 * claimed with a lease (so two workers never send the same attempt), recorded in the row's
 * attempt log, and the next one scheduled there; Bull is only the timer that wakes a worker,
 * and the sweeper re-creates its jobs from the rows if Redis lost them.
 */
@Injectable()
export class DeliveriesService implements OnApplicationShutdown {
  private readonly logger = new Logger(DeliveriesService.name);
  readonly policy: AddressPolicy;
  private readonly sender: WebhookSender;

  constructor(
    private readonly settings: Settings,
    private readonly deliveries: DeliveriesRepository,
    private readonly subscriptions: SubscriptionsRepository,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly queue: Queue<DeliveryJob>,
    @Optional() @Inject(HOST_LOOKUP) hostLookup?: HostLookup,
  ) {
    this.policy = new AddressPolicy(settings.webhookAllowedHosts, hostLookup);
    this.sender = new WebhookSender(this.policy, settings.webhookTimeoutMs);
  }

  onApplicationShutdown(): void {
    this.sender.close();
  }

  /**
   * Wakes a worker for an attempt. The job id names the delivery and the attempt, so adding
   * the same one twice is harmless. Never throws: a job that cannot be added now is added by
   * the sweeper later. The sweeper asks for `replacingLeftover`: a job of that id that is in
   * none of Bull's lists (left half-written when Redis restarted under a worker that was
   * starting it, with no data) would otherwise make every add a no-op, and the delivery wait
   * for ever.
   */
  async enqueue(job: DeliveryJob, delayMs = 0, replacingLeftover = false): Promise<boolean> {
    const jobId = `${job.deliveryId}:${job.attempt}`;
    try {
      if (replacingLeftover) await withTimeout(this.removeLeftover(jobId), ENQUEUE_TIMEOUT_MS);
      await withTimeout(
        this.queue.add(job, {
          jobId,
          delay: Math.max(0, delayMs),
          removeOnComplete: true,
          removeOnFail: true,
        }),
        ENQUEUE_TIMEOUT_MS,
      );
      return true;
    } catch (error) {
      this.logger.warn(
        `Delivery ${job.deliveryId} not queued now (the sweeper will): ${String(error)}`,
      );
      return false;
    }
  }

  private async removeLeftover(jobId: string): Promise<void> {
    const existing = await this.queue.getJob(jobId);
    // A job Bull can still run always has its data; the leftover has none, only the fields
    // the start of a run wrote. (Asking for its state would take six look-ups, racing the
    // job's own moves between lists.)
    if (existing === null || typeof existing.data?.deliveryId === 'string') return;
    this.logger.warn(`Job ${jobId} was left without its data (a Redis restart?): replacing it`);
    await existing.remove();
  }

  /** Sends the next attempt of a delivery if it is due and nobody else is sending it. */
  async attempt(deliveryId: string): Promise<void> {
    // The worker's own statements, each committed at once (the lease before the send).
    const leaseMs = this.settings.webhookTimeoutMs + LEASE_MARGIN_MS;
    // The send's time limit counts from before the claim, so it ends before the lease does
    // (which PostgreSQL counts from its own later now()) even if this process stalls between.
    const claimed = performance.now();
    const delivery = await this.deliveries.claimAttempt(deliveryId, leaseMs);
    if (delivery === null) return;
    const attempt = delivery.attempts + 1;

    if (delivery.deleted_at !== null || !delivery.active) {
      await this.deliveries.recordAttempt(deliveryId, 'failed', null, {
        attempt,
        at: new Date().toISOString(),
        response_status: null,
        response_body: null,
        error: delivery.deleted_at !== null ? 'subscription deleted' : 'subscription inactive',
        duration_ms: 0,
      });
      return;
    }

    const body = JSON.stringify({
      id: delivery.event_id,
      type: delivery.event_type,
      created_at: delivery.event_created_at.toISOString(),
      organization_id: delivery.organization_id,
      data: delivery.data,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'X-Service-Event': delivery.event_type,
      'X-Service-Delivery': deliveryId,
      ...signDelivery(delivery.secret, delivery.event_id, body, timestamp),
    };
    const at = new Date().toISOString();
    const outcome = await this.sender.send(delivery.url, body, headers, claimed);
    const entry: AttemptLogEntry = {
      attempt,
      at,
      response_status: outcome.status,
      response_body: outcome.body,
      error:
        outcome.error ??
        (outcome.status !== null && !isSuccess(outcome.status) ? `HTTP ${outcome.status}` : null),
      duration_ms: outcome.durationMs,
    };

    if (outcome.status !== null && isSuccess(outcome.status)) {
      await this.deliveries.recordAttempt(deliveryId, 'succeeded', null, entry);
    } else if (outcome.status === 410) {
      // Gone: the receiver asks for nothing more. The subscription is switched off (as GitHub
      // and Stripe do), so no later event is sent to it; it shows `active: false`.
      await this.deliveries.recordAttempt(deliveryId, 'failed', null, entry);
      await this.subscriptions.deactivate(delivery.subscription_id);
    } else if (attempt >= MAX_ATTEMPTS) {
      await this.deliveries.recordAttempt(deliveryId, 'failed', null, entry);
    } else {
      const delay = retryDelayMs(attempt + 1, this.settings.webhookRetryBaseMs);
      // Not re-queued if the delivery stopped meanwhile (subscription deleted, or redelivered).
      if (await this.deliveries.recordAttempt(deliveryId, 'pending', delay, entry)) {
        await this.enqueue({ deliveryId, attempt: attempt + 1 }, delay);
      }
    }
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
