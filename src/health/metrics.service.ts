import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { withTimeout } from '../common/with-timeout.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../queues/queues.constants.js';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** Prometheus metrics of this process: HTTP traffic by route and status, and queue depths. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;

  constructor(@InjectQueue(WEBHOOK_DELIVERY_QUEUE) deliveryQueue: Queue) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const queues = [deliveryQueue];
    new Gauge({
      name: 'queue_jobs',
      help: 'Jobs in each Bull queue by state',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        for (const queue of queues) {
          // A scrape while Redis is away reports what it can rather than failing.
          const counts = await withTimeout(queue.getJobCounts(), 500).catch(() => null);
          if (!counts) continue;
          for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state]);
        }
      },
    });
  }

  /** Express middleware that records every request once its response is finished. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const stop = this.latency.startTimer();
    res.on('finish', () => {
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      const labels = { method: req.method, route, status: String(res.statusCode) };
      this.requests.inc(labels);
      stop(labels);
    });
    next();
  };
}
