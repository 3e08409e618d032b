import { spawn, type ChildProcess } from 'node:child_process';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { WEBHOOK_DELIVERY_QUEUE } from '../../src/queues/queues.constants.js';
import { createTenant } from '../factories/organizations.js';
import { startApp, withKey, type TestApp } from '../support/app.js';
import { freePort, spawnService, waitForOutput, type ServiceProcess } from '../support/process.js';
import { eventually, Receiver } from '../support/receiver.js';

const WEBHOOK_SETTINGS = {
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_RETRY_BASE_MS: '150',
  WEBHOOK_SWEEP_INTERVAL_MS: '200',
  WEBHOOK_TIMEOUT_MS: '1000',
};
const SCOPES = ['builds:create', 'webhooks:manage'];

async function subscribe(t: TestApp, url: string) {
  const tenant = await createTenant(t, SCOPES);
  const res = await t.http
    .post('/api/v1/webhooks')
    .set(withKey(tenant.key))
    .send({ url, events: ['build.created.v1'] });
  expect(res.status).toBe(201);
  return { ...tenant, webhookId: res.body.id as string };
}

type Row = { status: string; attempts: number };

/** Polls the subscription's delivery rows until `done` holds for them; returns them. */
function deliveryRows(t: TestApp, webhookId: string, done: (rows: Row[]) => boolean, ms?: number) {
  return eventually(
    () =>
      t.app
        .get(DataSource)
        .query(
          'SELECT status, attempts FROM webhook_delivery WHERE subscription_id = $1 ORDER BY created_at',
          [webhookId],
        ) as Promise<Row[]>,
    done,
    ms,
  );
}

async function startWorker(): Promise<ServiceProcess> {
  const worker = spawnService({
    ...WEBHOOK_SETTINGS,
    APP_ROLE: 'worker',
    PORT: String(await freePort()),
  });
  await waitForOutput(worker, /Listening on/);
  return worker;
}

describe('webhook delivery survives failures', () => {
  let receiver: Receiver;
  let url: string;
  const workers: ServiceProcess[] = [];

  beforeEach(async () => {
    receiver = new Receiver();
    url = await receiver.start();
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) {
      if (worker.child.exitCode === null) {
        worker.child.kill('SIGKILL');
        await worker.exited;
      }
    }
    await receiver.stop();
  });

  it('delivers everything created while Redis was down once Redis is back', async () => {
    const port = await freePort();
    const startRedis = () =>
      new Promise<ChildProcess>((resolve, reject) => {
        const redis = spawn(
          'redis-server',
          ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
          {
            stdio: ['ignore', 'pipe', 'ignore'],
          },
        );
        redis.stdout?.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('Ready to accept connections')) resolve(redis);
        });
        redis.on('error', reject);
      });
    let redis = await startRedis();
    const t = await startApp({
      ...WEBHOOK_SETTINGS,
      APP_ROLE: 'all',
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    try {
      const { key, webhookId } = await subscribe(t, url);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'before' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 1);

      redis.kill('SIGKILL');
      await new Promise((resolve) => redis.once('exit', resolve));
      for (let i = 0; i < 5; i++) {
        await t.http
          .post('/api/v1/builds')
          .set(withKey(key))
          .send({ name: `while-down-${i}` })
          .expect(202);
      }
      // The relay got as far as it can without Redis: the deliveries are owed in the
      // database, and none has been sent.
      await deliveryRows(t, webhookId, (rows) => rows.length === 6);
      expect(receiver.received).toHaveLength(1);

      redis = await startRedis();
      await receiver.waitFor(() => receiver.received.length >= 6, 30_000);
      const names = receiver.received.map((r) => (r.json.data as { name: string }).name).sort();
      expect(names).toEqual(
        ['before', ...Array.from({ length: 5 }, (_, i) => `while-down-${i}`)].sort(),
      );
      expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(6);
    } finally {
      await t.close();
      redis.kill('SIGKILL');
    }
  }, 60_000);

  it('delivers with the same event id after the worker is killed mid-delivery', async () => {
    const t = await startApp({ ...WEBHOOK_SETTINGS, APP_ROLE: 'api' });
    try {
      const { key, webhookId } = await subscribe(t, url);
      receiver.respond = (_r, i) => (i === 0 ? 'hang' : 200);
      workers.push(await startWorker());
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'survivor' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 1);

      workers[0].child.kill('SIGKILL');
      await workers[0].exited;
      workers.push(await startWorker());
      await receiver.waitFor(() => receiver.received.length === 2, 50_000);

      const [first, second] = receiver.received;
      expect(second.json.id).toBe(first.json.id);
      expect(second.headers['x-service-delivery']).toBe(first.headers['x-service-delivery']);
      const rows = await deliveryRows(t, webhookId, ([row]) => row?.status !== 'pending');
      expect(rows).toEqual([{ status: 'succeeded', attempts: 1 }]);
    } finally {
      await t.close();
    }
  }, 80_000);

  it('never sends an attempt twice with two workers', async () => {
    const t = await startApp({ ...WEBHOOK_SETTINGS, APP_ROLE: 'api' });
    try {
      const { key, webhookId } = await subscribe(t, url);
      workers.push(await startWorker(), await startWorker());
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          t.http
            .post('/api/v1/builds')
            .set(withKey(key))
            .send({ name: `b${i}` })
            .expect(202),
        ),
      );
      await deliveryRows(
        t,
        webhookId,
        (rows) => rows.length === 30 && rows.every((r) => r.status === 'succeeded'),
        30_000,
      );
      // Every job of these deliveries has finished too (a job ends after its send is
      // answered), so a second send of any attempt would have reached the receiver by now.
      // Only these: the queue is shared with the test files that ran before in this worker,
      // whose deliveries may still have retries waiting.
      const ours = new Set(
        (
          (await t.app
            .get(DataSource)
            .query('SELECT id FROM webhook_delivery WHERE subscription_id = $1', [
              webhookId,
            ])) as Array<{ id: string }>
        ).map((row) => row.id),
      );
      const queue = t.app.get<Queue>(getQueueToken(WEBHOOK_DELIVERY_QUEUE));
      await eventually(
        async () =>
          (await queue.getJobs(['active', 'waiting', 'delayed'])).filter(
            (job) => job !== null && ours.has((job.data as { deliveryId: string }).deliveryId),
          ).length,
        (unfinished) => unfinished === 0,
      );
      const perDelivery = new Map<string, number>();
      for (const r of receiver.received) {
        const id = r.headers['x-service-delivery'] as string;
        perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
      }
      expect(perDelivery.size).toBe(30);
      expect([...perDelivery.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await t.close();
    }
  }, 120_000);
});
