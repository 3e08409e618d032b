import { Controller, Module, Post } from '@nestjs/common';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { RequireScopes } from '../src/auth/access.decorators.js';
import { Transactions } from '../src/database/transactions.js';
import { EventsService } from '../src/events/events.service.js';
import { createProject, createRelease } from './factories/catalog.js';
import { createTenant } from './factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from './factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from './support/app.js';
import { Receiver, sleep } from './support/receiver.js';

const WEBHOOK_SETTINGS = {
  APP_ROLE: 'all',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_RETRY_BASE_MS: '150',
  WEBHOOK_SWEEP_INTERVAL_MS: '200',
  WEBHOOK_TIMEOUT_MS: '2000',
};
const SCOPES = [...RUN_SCOPES, 'builds:create', 'webhooks:manage'];

/** Writes an event, then fails: the event must roll back with the transaction. */
@Controller('webhook-probe')
class RollbackProbe {
  constructor(
    private readonly transactions: Transactions,
    private readonly events: EventsService,
  ) {}

  @Post()
  @RequireScopes('builds:create')
  async fail(): Promise<never> {
    await this.transactions.run(async (manager) => {
      const [org] = await manager.query('SELECT id FROM organization LIMIT 1');
      await this.events.record(manager, org.id, 'build.created.v1', { id: 'rolled-back' });
      throw new Error('after the event, before the commit');
    });
    throw new Error('unreachable');
  }
}

@Module({ controllers: [RollbackProbe] })
class RollbackProbeModule {}

describe('webhooks', () => {
  let t: TestApp;
  let db: DataSource;
  let receiver: Receiver;
  let url: string;

  beforeAll(async () => {
    t = await startApp(WEBHOOK_SETTINGS, [RollbackProbeModule]);
    db = t.app.get(DataSource);
    receiver = new Receiver();
    url = await receiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.respond = () => 200;
  });

  async function subscribed(events: string[] = ['*'], plan = 'pro') {
    const tenant = await createTenant(t, SCOPES, { plan });
    const res = await t.http
      .post('/api/v1/webhooks')
      .set(withKey(tenant.key))
      .send({ url, events, description: 'CI' });
    expect(res.status).toBe(201);
    return { ...tenant, webhook: res.body as { id: string; secret: string } };
  }
  const deliveriesOf = async (key: string, webhookId: string, query = '') =>
    (
      await t.http
        .get(`/api/v1/webhooks/${webhookId}/deliveries${query}`)
        .set(withKey(key))
        .expect(200)
    ).body;

  describe('subscriptions', () => {
    it('creates with a secret shown once, lists without it, deletes', async () => {
      const { key, webhook } = await subscribed(['build.created.v1', 'testrun.completed.v1']);
      expect(webhook).toEqual({
        id: expect.any(String),
        url,
        events: ['build.created.v1', 'testrun.completed.v1'],
        description: 'CI',
        active: true,
        created_at: expect.any(String),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      const list = await t.http.get('/api/v1/webhooks').set(withKey(key)).expect(200);
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0]).not.toHaveProperty('secret');
      expect(JSON.stringify(list.body)).not.toContain(webhook.secret);
      await t.http.delete(`/api/v1/webhooks/${webhook.id}`).set(withKey(key)).expect(204);
      await t.http.delete(`/api/v1/webhooks/${webhook.id}`).set(withKey(key)).expect(404);
      expect((await t.http.get('/api/v1/webhooks').set(withKey(key))).body.data).toEqual([]);
    });

    it.each([
      [
        { url: 'https://example.com/h', events: ['build.created.v1', 'build.deleted.v1'] },
        'events[1]',
      ],
      [{ url: 'https://example.com/h', events: [] }, 'events'],
      [{ url: 'https://example.com/h' }, 'events'],
      [{ url: 'http://example.com/h', events: ['*'] }, 'url'],
      [{ url: 'ftp://example.com/h', events: ['*'] }, 'url'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: 'https://127.0.0.2/h', events: ['*'] }, 'url'],
      [{ url: 'https://10.1.2.3/h', events: ['*'] }, 'url'],
      [{ url: 'https://169.254.169.254/latest/meta-data', events: ['*'] }, 'url'],
      [{ url: 'https://[::1]/h', events: ['*'] }, 'url'],
      [{ url: 'https://[::127.0.0.1]/h', events: ['*'] }, 'url'],
      [{ url: 'https://[fec0::1]/h', events: ['*'] }, 'url'],
      [{ url: 'https://198.18.0.1/h', events: ['*'] }, 'url'],
      [{ url: 'https://[64:ff9b:1::1]/h', events: ['*'] }, 'url'],
      [{ url: 'https://224.0.0.1/h', events: ['*'] }, 'url'],
      [{ url: 'https://localhost/h', events: ['*'] }, 'url'],
      [{ url: 'https://user:pw@example.com/h', events: ['*'] }, 'url'],
    ])('refuses %j naming %s', async (body, field) => {
      const tenant = await createTenant(t, SCOPES);
      const res = await t.http.post('/api/v1/webhooks').set(withKey(tenant.key)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe(field);
    });

    it('allows 5 endpoints on Pro and refuses the 6th; Enterprise has no limit', async () => {
      const pro = await createTenant(t, SCOPES, { plan: 'pro' });
      const create = (key: string) =>
        t.http
          .post('/api/v1/webhooks')
          .set(withKey(key))
          .send({ url, events: ['*'] });
      const five = await Promise.all(Array.from({ length: 5 }, () => create(pro.key)));
      expect(five.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      const sixth = await create(pro.key);
      expect(sixth.status).toBe(403);
      expect(sixth.body).toEqual({
        error: 'plan_limit_reached',
        message: expect.any(String),
        details: { limit: 5 },
      });
      const enterprise = await createTenant(t, SCOPES, { plan: 'enterprise' });
      for (let i = 0; i < 6; i++) expect((await create(enterprise.key)).status).toBe(201);
    });

    it('keeps organizations apart and needs webhooks:manage', async () => {
      const { webhook } = await subscribed();
      const stranger = await createTenant(t, SCOPES);
      await t.http.delete(`/api/v1/webhooks/${webhook.id}`).set(withKey(stranger.key)).expect(404);
      await t.http
        .get(`/api/v1/webhooks/${webhook.id}/deliveries`)
        .set(withKey(stranger.key))
        .expect(404);
      const reader = await createTenant(t, ['builds:read']);
      const res = await t.http.get('/api/v1/webhooks').set(withKey(reader.key));
      expect(res.status).toBe(403);
      expect(res.body.details.required_scopes).toEqual(['webhooks:manage']);
    });

    it('lists the six event types', async () => {
      const { key } = await createTenant(t, ['builds:read']);
      const res = await t.http.get('/api/v1/events').set(withKey(key)).expect(200);
      expect(res.body.data.map((e: { type: string }) => e.type)).toEqual([
        'build.created.v1',
        'testrun.created.v1',
        'testrun.submitted.v1',
        'testrun.completed.v1',
        'testcase.failed.v1',
        'release.released.v1',
      ]);
      expect(res.body.pagination).toEqual({ total: 6, limit: 6, offset: 0, has_more: false });
    });
  });

  describe('delivery', () => {
    it('delivers every event type, signed for Stripe’s and the Standard Webhooks libraries', async () => {
      const { org, key, webhook } = await subscribed();
      const project = await createProject(t, org.id);
      const release = await createRelease(t, project.id);
      const build = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .send({ name: 'b1' })
        .expect(202);
      const run = await createRun(t, key, project.id);
      await submitResults(t, key, run.id, [
        { automation_id: 'ok', status: 'passed' },
        { automation_id: 'broken', status: 'failed', message: 'nope' },
      ]);
      await t.http
        .patch(`/api/v1/testruns/${run.id}`)
        .set(withKey(key))
        .send({ status: 'submitted' })
        .expect(200);
      await t.http
        .patch(`/api/v1/testruns/${run.id}`)
        .set(withKey(key))
        .send({ status: 'completed' })
        .expect(200);
      await t.http
        .patch(`/internal/v1/releases/${release.id}`)
        .set(OPERATOR)
        .send({ status: 'completed' })
        .expect(200);
      await t.http
        .patch(`/internal/v1/releases/${release.id}`)
        .set(OPERATOR)
        .send({ status: 'completed' })
        .expect(409);

      const types = [
        'build.created.v1',
        'testrun.created.v1',
        'testcase.failed.v1',
        'testrun.submitted.v1',
        'testrun.completed.v1',
        'release.released.v1',
      ];
      await receiver.waitFor(() => types.every((type) => receiver.of(type).length > 0));
      await sleep(300);
      expect(receiver.of('release.released.v1')).toHaveLength(1);
      expect(receiver.of('testcase.failed.v1')).toHaveLength(1);

      const stripe = new Stripe('sk_test_unused');
      for (const delivery of receiver.received) {
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(delivery.headers['x-service-event']).toBe(delivery.json.type);
        expect(delivery.headers['x-service-delivery']).toMatch(/^[0-9a-f-]{36}$/);
        expect(delivery.json).toEqual({
          id: expect.any(String),
          type: expect.any(String),
          created_at: expect.stringMatching(/Z$/),
          organization_id: org.id,
          data: expect.any(Object),
        });
        const event = stripe.webhooks.constructEvent(
          delivery.body,
          delivery.headers['x-service-signature'] as string,
          webhook.secret,
        );
        expect(event.id).toBe(delivery.json.id);
        const headers = {
          'webhook-id': delivery.headers['webhook-id'] as string,
          'webhook-timestamp': delivery.headers['webhook-timestamp'] as string,
          'webhook-signature': delivery.headers['webhook-signature'] as string,
        };
        expect(headers['webhook-id']).toBe(delivery.json.id);
        expect(new Webhook(webhook.secret).verify(delivery.body, headers)).toMatchObject({
          id: delivery.json.id,
        });
      }
      expect(receiver.of('build.created.v1')[0].json.data).toMatchObject({
        id: build.body.id,
        status: 'planned',
        queue_position: 1,
      });
      expect(receiver.of('testrun.completed.v1')[0].json.data).toMatchObject({
        id: run.id,
        status: 'completed',
        counts: { total: 2, failed: 1 },
      });
      expect(receiver.of('testcase.failed.v1')[0].json.data).toMatchObject({
        status: 'failed',
        message: 'nope',
        test_run_id: run.id,
      });
      expect(receiver.of('release.released.v1')[0].json.data).toMatchObject({
        id: release.id,
        status: 'completed',
      });

      const log = await deliveriesOf(key, webhook.id, '?status=succeeded');
      expect(log.pagination.total).toBe(6);
      expect(log.data[0]).toMatchObject({
        status: 'succeeded',
        attempts: 1,
        next_attempt_at: null,
      });
      expect(log.data[0].attempt_log).toEqual([
        {
          attempt: 1,
          at: expect.any(String),
          response_status: 200,
          response_body: 'answer 200',
          error: null,
          duration_ms: expect.any(Number),
        },
      ]);
      const filtered = await deliveriesOf(key, webhook.id, '?event_type=testcase.failed.v1');
      expect(filtered.data).toHaveLength(1);
    });

    it('sends only the subscribed types', async () => {
      const { org, key } = await subscribed(['testrun.created.v1']);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'quiet' }).expect(202);
      await createRun(t, key, (await createProject(t, org.id)).id);
      await receiver.waitFor(() => receiver.received.length >= 1);
      await sleep(500);
      expect(receiver.received.map((r) => r.json.type)).toEqual(['testrun.created.v1']);
    });

    it('emits nothing for a transaction that rolled back', async () => {
      const { key } = await subscribed();
      const before = (await db.query('SELECT count(*)::int AS n FROM domain_event'))[0].n;
      const res = await t.http.post('/api/v1/webhook-probe').set(withKey(key)).send({});
      expect(res.status).toBe(500);
      await sleep(500);
      expect((await db.query('SELECT count(*)::int AS n FROM domain_event'))[0].n).toBe(before);
      expect(receiver.received).toEqual([]);
    });

    it('retries: fails twice, then succeeds on the 3rd attempt, all logged under one delivery id', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = (_r, i) => (i < 2 ? 500 : 200);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 3);
      const ids = new Set(receiver.received.map((r) => r.headers['x-service-delivery']));
      expect(ids.size).toBe(1);
      expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(1);
      await sleep(200);
      const [delivery] = (await deliveriesOf(key, webhook.id)).data;
      expect(delivery).toMatchObject({
        id: [...ids][0],
        status: 'succeeded',
        attempts: 3,
        next_attempt_at: null,
      });
      expect(
        delivery.attempt_log.map((a: { response_status: number }) => a.response_status),
      ).toEqual([500, 500, 200]);
      expect(delivery.attempt_log[0].error).toBe('HTTP 500');
    });

    it('gives up after exactly 5 attempts', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = () => 503;
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      // 150 + 600 + 2400 + 9600 ms ≈ 13 s of waits before the 5th attempt.
      await receiver.waitFor(() => receiver.received.length === 5, 25_000);
      await sleep(1500);
      expect(receiver.received).toHaveLength(5);
      const [delivery] = (await deliveriesOf(key, webhook.id)).data;
      expect(delivery).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null });
      const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i].at);
      expect(gaps[1]).toBeGreaterThan(gaps[0]);
      expect(gaps[3]).toBeGreaterThan(gaps[2]);
    }, 40_000);

    it('stops at 410 Gone', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = () => 410;
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 1);
      await sleep(1000);
      expect(receiver.received).toHaveLength(1);
      const [delivery] = (await deliveriesOf(key, webhook.id)).data;
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
    });

    it('does not follow redirects: a 302 is a failure', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = (_r, i) =>
        i === 0 ? { status: 302, location: url.replace('/hook', '/elsewhere') } : 200;
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 2);
      expect(receiver.received.map((r) => r.json.type)).toEqual([
        'build.created.v1',
        'build.created.v1',
      ]);
      await sleep(200);
      const [delivery] = (await deliveriesOf(key, webhook.id)).data;
      expect(
        delivery.attempt_log.map((a: { response_status: number }) => a.response_status),
      ).toEqual([302, 200]);
    });

    it('refuses at send time an address that is not public (DNS rebinding)', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      // As if the name now resolved to another loopback address than the allowed one.
      await db.query('UPDATE webhook_subscription SET url = $2 WHERE id = $1', [
        webhook.id,
        url.replace('127.0.0.1', '127.0.0.2'),
      ]);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      let delivery: { attempt_log: Array<{ error: string }> } | undefined;
      for (let i = 0; i < 100 && !delivery?.attempt_log.length; i++) {
        await sleep(50);
        delivery = (await deliveriesOf(key, webhook.id)).data[0];
      }
      expect(delivery?.attempt_log[0].error).toMatch(/non-public/);
      expect(receiver.received).toEqual([]);
    });

    it('counts a receiver that does not answer in time as a failure', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = (_r, i) => (i === 0 ? 'hang' : 200);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'slow' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 2, 20_000);
      await sleep(200);
      const [delivery] = (await deliveriesOf(key, webhook.id)).data;
      expect(delivery.status).toBe('succeeded');
      expect(delivery.attempt_log[0]).toMatchObject({
        response_status: null,
        error: 'timed out after 2000 ms',
      });
      expect(delivery.attempt_log[0].duration_ms).toBeGreaterThanOrEqual(1900);
    });

    it('deletes finished deliveries and relayed events past the retention period', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'old' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 1);
      await sleep(200);
      const [delivery] = (await deliveriesOf(key, webhook.id)).data;
      await db.query(
        `UPDATE webhook_delivery SET updated_at = now() - interval '31 days' WHERE id = $1`,
        [delivery.id],
      );
      await db.query(
        `UPDATE domain_event SET relayed_at = now() - interval '31 days' WHERE id = $1`,
        [delivery.event_id],
      );
      const { OutboxRelay } = await import('../src/webhooks/outbox-relay.js');
      await t.app.get(OutboxRelay).cleanup();
      expect((await deliveriesOf(key, webhook.id)).data).toEqual([]);
      expect(
        await db.query('SELECT id FROM domain_event WHERE id = $1', [delivery.event_id]),
      ).toEqual([]);
    });

    it('stops pending retries when the subscription is deleted', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = () => 500;
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 1);
      await t.http.delete(`/api/v1/webhooks/${webhook.id}`).set(withKey(key)).expect(204);
      await sleep(2000);
      expect(receiver.received).toHaveLength(1);
      const rows = await db.query(
        'SELECT status, attempts FROM webhook_delivery WHERE subscription_id = $1',
        [webhook.id],
      );
      expect(rows).toEqual([{ status: 'failed', attempts: 1 }]);
    });

    it('redelivers an event as a new delivery with the same event id', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 1);
      await sleep(100);
      const [first] = (await deliveriesOf(key, webhook.id)).data;
      const res = await t.http
        .post(`/api/v1/webhooks/${webhook.id}/deliveries/${first.id}/redeliver`)
        .set(withKey(key));
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ event_id: first.event_id, status: 'pending', attempts: 0 });
      expect(res.body.id).not.toBe(first.id);
      await receiver.waitFor(() => receiver.received.length === 2);
      expect(receiver.received[1].json.id).toBe(receiver.received[0].json.id);
      expect(receiver.received[1].headers['x-service-delivery']).toBe(res.body.id);
      await t.http
        .post(
          `/api/v1/webhooks/${webhook.id}/deliveries/0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c/redeliver`,
        )
        .set(withKey(key))
        .expect(404);
    });
  });
});
