import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { getQueueToken } from '@nestjs/bull';
import { Controller, Global, Module, Post, Query } from '@nestjs/common';
import type { Queue } from 'bull';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { Principal, RequireScopes } from '../../src/routes/access.decorators.js';
import type { ApiPrincipal } from '../../src/routes/api-principal.js';
import { Transactions } from '../../src/database/transactions.js';
import { EventsService } from '../../src/events/events.service.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../../src/queues/queues.constants.js';
import { HOST_LOOKUP, type HostLookup } from '../../src/webhooks/address-policy.js';
import { createProject, createRelease } from '../factories/catalog.js';
import { createApiKey, createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import { freePort } from '../support/process.js';
import { eventually, Receiver } from '../support/receiver.js';

const RETRY_BASE_MS = 150;
const WEBHOOK_SETTINGS = {
  APP_ROLE: 'all',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
  WEBHOOK_SWEEP_INTERVAL_MS: '200',
  WEBHOOK_TIMEOUT_MS: '2000',
};
const SCOPES = [...RUN_SCOPES, 'builds:create', 'webhooks:manage'];

/** Names the tests make resolve where they want (no DNS server needed); others go to the system. */
const names = new Map<string, string[]>();
const testLookup: HostLookup = async (hostname) => {
  const addresses = names.get(hostname);
  if (!addresses) return lookup(hostname, { all: true, verbatim: true });
  return addresses.map((address) => ({ address, family: isIP(address) }));
};

@Global()
@Module({ providers: [{ provide: HOST_LOOKUP, useValue: testLookup }], exports: [HOST_LOOKUP] })
class TestDnsModule {}

/**
 * Writes an event for the caller's organization, then fails (the event must roll back with the
 * transaction), or with `?commit=true` commits it: the control that shows the same event would
 * have reached the caller's receiver.
 */
@Controller('webhook-probe')
class RollbackProbe {
  constructor(
    private readonly transactions: Transactions,
    private readonly events: EventsService,
  ) {}

  @Post()
  @RequireScopes('builds:create')
  async record(
    @Principal() principal: ApiPrincipal,
    @Query('commit') commit?: string,
  ): Promise<{ recorded: string }> {
    const id = commit === 'true' ? 'committed' : 'rolled-back';
    await this.transactions.run(async () => {
      await this.events.record(principal.organization.id, 'build.created.v1', { id });
      if (id === 'rolled-back') throw new Error('after the event, before the commit');
    });
    return { recorded: id };
  }
}

@Module({ controllers: [RollbackProbe] })
class RollbackProbeModule {}

interface Attempt {
  attempt: number;
  at: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
}
interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  attempt_log: Attempt[];
  created_at: string;
  updated_at: string;
}
type Row = { status: string; attempts: number };
/** `n` deliveries, none still pending. */
const finished = (n: number) => (rows: Row[]) =>
  rows.length === n && rows.every((r) => r.status !== 'pending');

describe('webhooks', () => {
  let t: TestApp;
  let db: DataSource;
  let receiver: Receiver;
  let url: string;

  beforeAll(async () => {
    t = await startApp(WEBHOOK_SETTINGS, [TestDnsModule, RollbackProbeModule]);
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
    ).body as { data: Delivery[]; pagination: Record<string, unknown> };

  /**
   * Waits until the webhook's delivery rows satisfy `done` (polled in the database, so waiting
   * spends none of the organization's API calls), then returns the deliveries as the API shows
   * them, newest first.
   */
  async function deliveriesWhen(
    key: string,
    webhookId: string,
    done: (rows: Row[]) => boolean,
    ms?: number,
  ): Promise<Delivery[]> {
    await eventually(
      () =>
        db.query('SELECT status, attempts FROM webhook_delivery WHERE subscription_id = $1', [
          webhookId,
        ]) as Promise<Row[]>,
      done,
      ms,
    );
    return (await deliveriesOf(key, webhookId, '?limit=100')).data;
  }

  /**
   * Waits until every event of the organization has been relayed (so no delivery can still
   * appear) and its `n` deliveries have finished: after that, what the receiver got is all it
   * will get.
   */
  async function settled(orgId: string, key: string, webhookId: string, n: number) {
    await eventually(
      () =>
        db.query(
          'SELECT count(*)::int AS n FROM domain_event WHERE organization_id = $1 AND relayed_at IS NULL',
          [orgId],
        ) as Promise<Array<{ n: number }>>,
      ([unrelayed]) => unrelayed.n === 0,
    );
    return deliveriesWhen(key, webhookId, finished(n));
  }

  const invalid = (field: string) => ({
    error: 'invalid_request',
    message: expect.any(String),
    details: {
      field,
      errors: expect.arrayContaining([{ field, message: expect.any(String) }]),
    },
  });

  describe('subscriptions', () => {
    it('creates with a secret shown once, lists without it, deletes', async () => {
      const { key, webhook } = await subscribed([
        'build.created.v1',
        'testrun.completed.v1',
        'testrun.reopened.v1',
      ]);
      expect(webhook).toEqual({
        id: expect.any(String),
        url,
        events: ['build.created.v1', 'testrun.completed.v1', 'testrun.reopened.v1'],
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
      expect(res.body).toEqual(invalid(field));
      expect((await t.http.get('/api/v1/webhooks').set(withKey(tenant.key))).body.data).toEqual([]);
    });

    it('refuses a host name that resolves to a non-public address, naming url', async () => {
      names.set('private.hooks.test', ['10.20.30.40']);
      names.set('mixed.hooks.test', ['93.184.215.14', 'fd00::1']);
      names.set('public.hooks.test', ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
      const { key } = await createTenant(t, SCOPES);
      const create = (host: string) =>
        t.http
          .post('/api/v1/webhooks')
          .set(withKey(key))
          .send({ url: `https://${host}/hook`, events: ['*'] });
      for (const [host, address] of [
        ['private.hooks.test', '10.20.30.40'],
        ['mixed.hooks.test', 'fd00::1'],
      ]) {
        const res = await create(host);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalid('url'));
        expect(res.body.message).toContain(address);
      }
      // The same request with a name that resolves only publicly is accepted: the refusals
      // above come from the addresses, not from the names.
      expect((await create('public.hooks.test')).status).toBe(201);
    });

    it('holds the Pro limit of 5 under 10 concurrent creations', async () => {
      const pro = await createTenant(t, SCOPES, { plan: 'pro' });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.http
            .post('/api/v1/webhooks')
            .set(withKey(pro.key))
            .send({ url, events: ['*'], description: `parallel ${i}` }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(5);
      const refused = results.filter((r) => r.status !== 201);
      expect(refused).toHaveLength(5);
      for (const res of refused) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          error: 'plan_limit_reached',
          message: expect.any(String),
          details: { limit: 5 },
        });
      }
      const list = await t.http.get('/api/v1/webhooks').set(withKey(pro.key)).expect(200);
      expect(list.body.pagination.total).toBe(5);
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

    it('needs webhooks:manage to list deliveries and to redeliver, even in the same organization', async () => {
      const { org, key, webhook } = await subscribed(['build.created.v1']);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      const [delivery] = await deliveriesWhen(key, webhook.id, finished(1));
      const without = await createApiKey(
        t,
        org.id,
        SCOPES.filter((scope) => scope !== 'webhooks:manage'),
      );
      const refusal = {
        error: 'insufficient_scope',
        message: expect.any(String),
        details: { required_scopes: ['webhooks:manage'] },
      };
      const list = await t.http
        .get(`/api/v1/webhooks/${webhook.id}/deliveries`)
        .set(withKey(without.key));
      expect([list.status, list.body]).toEqual([403, refusal]);
      const again = await t.http
        .post(`/api/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`)
        .set(withKey(without.key));
      expect([again.status, again.body]).toEqual([403, refusal]);
      // The refused redeliver made no delivery (it would be written before the 202).
      const rows = await db.query('SELECT id FROM webhook_delivery WHERE subscription_id = $1', [
        webhook.id,
      ]);
      expect(rows).toEqual([{ id: delivery.id }]);
    });

    it('lists the event types', async () => {
      const { key } = await createTenant(t, ['builds:read']);
      const res = await t.http.get('/api/v1/events').set(withKey(key)).expect(200);
      expect(res.body.data.map((e: { type: string }) => e.type)).toEqual([
        'build.created.v1',
        'testrun.created.v1',
        'testrun.submitted.v1',
        'testrun.completed.v1',
        'testrun.reopened.v1',
        'testcase.failed.v1',
        'release.released.v1',
        'testcase.quarantined.v1',
        'testcase.unquarantined.v1',
      ]);
      expect(res.body.data[4]).toEqual({
        type: 'testrun.reopened.v1',
        resource: 'test_run',
        description: expect.stringMatching(/reopened/),
      });
      expect(res.body.pagination).toEqual({ total: 9, limit: 25, offset: 0, has_more: false });
    });

    it('pages the event types as every collection (CONTRACT §5)', async () => {
      const { key } = await createTenant(t, ['builds:read']);
      const page = await t.http
        .get('/api/v1/events?limit=3&offset=7')
        .set(withKey(key))
        .expect(200);
      expect(page.body.data.map((e: { type: string }) => e.type)).toEqual([
        'testcase.quarantined.v1',
        'testcase.unquarantined.v1',
      ]);
      expect(page.body.pagination).toEqual({ total: 9, limit: 3, offset: 7, has_more: false });
      const first = await t.http.get('/api/v1/events?limit=2').set(withKey(key)).expect(200);
      expect(first.body.pagination).toEqual({ total: 9, limit: 2, offset: 0, has_more: true });
      for (const [param, value] of [
        ['limit', '0'],
        ['limit', '101'],
        ['offset', '-1'],
        ['limit', 'x'],
      ]) {
        const bad = await t.http.get(`/api/v1/events?${param}=${value}`).set(withKey(key));
        expect(bad.status).toBe(400);
        expect(bad.body.details.field).toBe(param);
      }
    });

    it('pages deliveries newest first with limit, offset, total and has_more', async () => {
      const { org, key, webhook } = await subscribed(['build.created.v1']);
      for (const name of ['one', 'two', 'three'])
        await t.http.post('/api/v1/builds').set(withKey(key)).send({ name }).expect(202);
      const all = await settled(org.id, key, webhook.id, 3);
      const first = await deliveriesOf(key, webhook.id, '?limit=2');
      expect(first.pagination).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
      const second = await deliveriesOf(key, webhook.id, '?limit=2&offset=2');
      expect(second.pagination).toEqual({ total: 3, limit: 2, offset: 2, has_more: false });
      const paged = [...first.data, ...second.data];
      expect(paged.map((d) => d.id)).toEqual(all.map((d) => d.id));
      expect(new Set(paged.map((d) => d.id)).size).toBe(3);
      const created = paged.map((d) => d.created_at);
      expect([...created].sort().reverse()).toEqual(created);
      const beyond = await deliveriesOf(key, webhook.id, '?offset=3');
      expect(beyond).toEqual({
        data: [],
        pagination: { total: 3, limit: 25, offset: 3, has_more: false },
      });
      const failed = await deliveriesOf(key, webhook.id, '?status=failed');
      expect(failed.pagination.total).toBe(0);
    });

    it.each([
      ['?status=delivered', 'status'],
      ['?event_type=build.deleted.v1', 'event_type'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?offset=-1', 'offset'],
    ])('refuses the deliveries query %s naming %s', async (query, field) => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      const res = await t.http
        .get(`/api/v1/webhooks/${webhook.id}/deliveries${query}`)
        .set(withKey(key));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(field));
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
      await settled(org.id, key, webhook.id, 6);
      expect(receiver.received.map((r) => r.json.type).sort()).toEqual([...types].sort());

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
      expect(new Set(log.data.map((d) => d.event_type))).toEqual(new Set(types));
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
      const { org, key, webhook } = await subscribed(['testrun.created.v1']);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'quiet' }).expect(202);
      await createRun(t, key, (await createProject(t, org.id)).id);
      await settled(org.id, key, webhook.id, 1);
      expect(receiver.received.map((r) => r.json.type)).toEqual(['testrun.created.v1']);
    });

    it('emits nothing for a transaction that rolled back, and delivers a committed event after it', async () => {
      const { org, key, webhook } = await subscribed(['build.created.v1']);
      const res = await t.http.post('/api/v1/webhook-probe').set(withKey(key)).send({});
      expect(res.status).toBe(500);
      // The same event from the same probe, committed: it reaches this receiver, so the
      // rolled-back one would have too.
      await t.http.post('/api/v1/webhook-probe?commit=true').set(withKey(key)).expect(201);
      const deliveries = await settled(org.id, key, webhook.id, 1);
      expect(deliveries.map((d) => d.status)).toEqual(['succeeded']);
      expect(receiver.received.map((r) => r.json.data)).toEqual([{ id: 'committed' }]);
      expect(receiver.received[0].json.organization_id).toBe(org.id);
      const events = await db.query(
        `SELECT data->>'id' AS id FROM domain_event WHERE organization_id = $1`,
        [org.id],
      );
      expect(events).toEqual([{ id: 'committed' }]);
    });

    it('sends one testcase.failed.v1 per failed result, and none for other statuses', async () => {
      const { org, key, webhook } = await subscribed(['testcase.failed.v1']);
      const run = await createRun(t, key, (await createProject(t, org.id)).id);
      const first = await submitResults(t, key, run.id, [
        { automation_id: 'a', status: 'failed', message: 'a1' },
        { automation_id: 'b', status: 'failed', message: 'b1' },
        { automation_id: 'c', status: 'passed' },
        { automation_id: 'd', status: 'blocked' },
        { automation_id: 'e', status: 'skipped' },
        { automation_id: 'f', status: 'retest' },
      ]);
      expect(first.status).toBe(201);
      // A case that fails again is another failed result, and another event.
      const second = await submitResults(t, key, run.id, [
        { automation_id: 'a', status: 'failed', message: 'a2' },
        { automation_id: 'c', status: 'failed', message: 'c2' },
      ]);
      expect(second.status).toBe(201);
      await settled(org.id, key, webhook.id, 4);
      expect(receiver.received.map((r) => r.json.type)).toEqual(
        Array(4).fill('testcase.failed.v1'),
      );
      const data = receiver.received.map((r) => r.json.data);
      expect(data.map((d) => d.message).sort()).toEqual(['a1', 'a2', 'b1', 'c2']);
      expect(data.every((d) => d.status === 'failed' && d.test_run_id === run.id)).toBe(true);
      expect(new Set(data.map((d) => d.id)).size).toBe(4);
    });

    it('delivers the events of builds and runs created from the UI', async () => {
      const { org, key, webhook } = await subscribed(['build.created.v1', 'testrun.created.v1']);
      const project = await createProject(t, org.id);
      const build = await t.http
        .post(`/internal/v1/organizations/${org.id}/builds`)
        .set(OPERATOR)
        .send({ name: 'from the UI' })
        .expect(202);
      const run = await t.http
        .post(`/internal/v1/projects/${project.id}/testruns`)
        .set(OPERATOR)
        .send({ name: 'UI run' })
        .expect(201);
      const deliveries = await settled(org.id, key, webhook.id, 2);
      expect(deliveries.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
      expect(receiver.of('build.created.v1').map((r) => r.json.data)).toEqual([
        expect.objectContaining({ id: build.body.id, source: 'ui', name: 'from the UI' }),
      ]);
      expect(receiver.of('testrun.created.v1').map((r) => r.json.data)).toEqual([
        expect.objectContaining({ id: run.body.id, source: 'ui', name: 'UI run' }),
      ]);
      expect(receiver.received.every((r) => r.json.organization_id === org.id)).toBe(true);
    });

    it('retries: fails twice, then succeeds on the 3rd attempt, all logged under one delivery id', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = (_r, i) => (i < 2 ? 500 : 200);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      const [delivery] = await deliveriesWhen(key, webhook.id, finished(1));
      expect(receiver.received).toHaveLength(3);
      const ids = new Set(receiver.received.map((r) => r.headers['x-service-delivery']));
      expect(ids.size).toBe(1);
      expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(1);
      expect(delivery).toMatchObject({
        id: [...ids][0],
        status: 'succeeded',
        attempts: 3,
        next_attempt_at: null,
      });
      expect(delivery.attempt_log.map((a) => a.response_status)).toEqual([500, 500, 200]);
      expect(delivery.attempt_log[0].error).toBe('HTTP 500');
    });

    it('retries after the base delay, then 4× longer each time, ±10 %, and gives up after exactly 5 attempts', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      // While attempt k+1 is in flight the row still holds what attempt k's failure scheduled:
      // next_attempt_at and updated_at come from one statement, so their difference is the
      // delay the worker chose, whatever the machine's load made of the actual timing.
      const scheduled: Array<{ attempts: number; delay_ms: number; next_ms: number }> = [];
      receiver.respond = async (_r, i) => {
        if (i > 0) {
          const [row] = await db.query(
            `SELECT attempts,
                    (extract(epoch FROM next_attempt_at - updated_at) * 1000)::float8 AS delay_ms,
                    (extract(epoch FROM next_attempt_at) * 1000)::float8 AS next_ms
               FROM webhook_delivery WHERE subscription_id = $1`,
            [webhook.id],
          );
          scheduled.push(row);
        }
        return 503;
      };
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      // 150 + 600 + 2400 + 9600 ms ≈ 13 s of waits before the 5th attempt.
      const [delivery] = await deliveriesWhen(key, webhook.id, finished(1), 30_000);
      expect(receiver.received).toHaveLength(5);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null });
      expect(delivery.attempt_log.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);

      expect(scheduled.map((s) => s.attempts)).toEqual([1, 2, 3, 4]);
      const nominal = [1, 4, 16, 64].map((factor) => RETRY_BASE_MS * factor);
      scheduled.forEach(({ delay_ms }, k) => {
        expect(delay_ms).toBeGreaterThanOrEqual(Math.floor(nominal[k] * 0.9));
        expect(delay_ms).toBeLessThanOrEqual(Math.ceil(nominal[k] * 1.1));
      });
      // Jittered: four delays all on their nominal value would be a missing jitter.
      expect(scheduled.some(({ delay_ms }, k) => Math.abs(delay_ms - nominal[k]) > 1)).toBe(true);
      // And each attempt went out no earlier than scheduled (attempt_log times are the
      // worker's clock, the schedule PostgreSQL's: the same machine).
      scheduled.forEach(({ next_ms }, k) => {
        const sent = Date.parse(delivery.attempt_log[k + 1].at);
        expect(sent).toBeGreaterThanOrEqual(Math.floor(next_ms) - 50);
        const previous = Date.parse(delivery.attempt_log[k].at);
        expect(sent - previous).toBeGreaterThanOrEqual(Math.floor(nominal[k] * 0.9) - 50);
      });
    }, 45_000);

    it('stops at 410 Gone', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = () => 410;
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      // Once failed, the delivery can never be attempted again.
      const [delivery] = await deliveriesWhen(key, webhook.id, finished(1));
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null });
      expect(delivery.attempt_log[0]).toMatchObject({ response_status: 410, error: 'HTTP 410' });
      expect(receiver.received).toHaveLength(1);
    });

    it('does not follow redirects: a 302 is a failure', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = (_r, i) =>
        i === 0 ? { status: 302, location: url.replace('/hook', '/elsewhere') } : 200;
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      const [delivery] = await deliveriesWhen(key, webhook.id, finished(1));
      // The receiver never saw a request on the Location's path.
      expect(receiver.received.map((r) => r.json.type)).toEqual([
        'build.created.v1',
        'build.created.v1',
      ]);
      expect(delivery.attempt_log.map((a) => a.response_status)).toEqual([302, 200]);
    });

    it('refuses at connect time a name that resolved publicly at creation and now resolves privately (DNS rebinding)', async () => {
      const host = 'rebind.hooks.test';
      names.set(host, ['93.184.215.14']);
      const { key } = await createTenant(t, SCOPES);
      // The receiver's port: were the connect-time check missing, the request would reach it.
      const hookUrl = url.replace('http://127.0.0.1', `https://${host}`);
      const created = await t.http
        .post('/api/v1/webhooks')
        .set(withKey(key))
        .send({ url: hookUrl, events: ['build.created.v1'] });
      expect(created.status).toBe(201);
      names.set(host, ['127.0.0.1', '10.0.0.7']);
      try {
        await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
        const [delivery] = await deliveriesWhen(key, created.body.id, ([row]) => row?.attempts > 0);
        expect(delivery.attempt_log[0]).toEqual({
          attempt: 1,
          at: expect.any(String),
          response_status: null,
          response_body: null,
          error: `refused: ${host} resolves only to non-public addresses`,
          duration_ms: expect.any(Number),
        });
        expect(receiver.received).toEqual([]);
      } finally {
        await t.http.delete(`/api/v1/webhooks/${created.body.id}`).set(withKey(key)).expect(204);
      }
    });

    it('still refuses an IP literal that is not public at send time', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      // Only a row changed behind the API's back can hold one: creation refuses it.
      await db.query('UPDATE webhook_subscription SET url = $2 WHERE id = $1', [
        webhook.id,
        url.replace('127.0.0.1', '127.0.0.2'),
      ]);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      const [delivery] = await deliveriesWhen(key, webhook.id, ([row]) => row?.attempts > 0);
      expect(delivery.attempt_log[0]).toMatchObject({
        response_status: null,
        error: 'refused: 127.0.0.2 is a non-public address',
      });
      expect(receiver.received).toEqual([]);
      await t.http.delete(`/api/v1/webhooks/${webhook.id}`).set(withKey(key)).expect(204);
    });

    it('logs a connection error with a null status, and retries', async () => {
      const { key } = await createTenant(t, SCOPES);
      // A port nobody listens on (freed again at once).
      const closed = `http://127.0.0.1:${await freePort()}/hook`;
      const created = await t.http
        .post('/api/v1/webhooks')
        .set(withKey(key))
        .send({ url: closed, events: ['build.created.v1'] })
        .expect(201);
      try {
        await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
        const [delivery] = await deliveriesWhen(key, created.body.id, ([row]) => row?.attempts > 0);
        expect(delivery.attempt_log[0]).toEqual({
          attempt: 1,
          at: expect.any(String),
          response_status: null,
          response_body: null,
          error: expect.stringContaining('ECONNREFUSED'),
          duration_ms: expect.any(Number),
        });
        // A failure like any other: retried, unless it was the last attempt.
        expect(delivery.status === 'pending' || delivery.attempts > 1).toBe(true);
      } finally {
        await t.http.delete(`/api/v1/webhooks/${created.body.id}`).set(withKey(key)).expect(204);
      }
    });

    it.each([201, 202, 204, 299])('counts a %i answer as success', async (status) => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = () => status;
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      const [delivery] = await deliveriesWhen(key, webhook.id, finished(1));
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, next_attempt_at: null });
      expect(delivery.attempt_log[0]).toMatchObject({ response_status: status, error: null });
      expect(receiver.received).toHaveLength(1);
    });

    it('keeps the first 2 KiB of the receiver’s answer in the attempt log', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      const answer = 'a'.repeat(2000) + 'b'.repeat(48) + 'c'.repeat(10_000);
      receiver.respond = () => ({ status: 500, body: answer });
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      const [delivery] = await deliveriesWhen(key, webhook.id, ([row]) => row?.attempts > 0);
      expect(delivery.attempt_log[0].response_body).toBe(answer.slice(0, 2048));
      await t.http.delete(`/api/v1/webhooks/${webhook.id}`).set(withKey(key)).expect(204);
    });

    it('counts a receiver that does not answer in time as a failure', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      receiver.respond = (_r, i) => (i === 0 ? 'hang' : 200);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'slow' }).expect(202);
      const [delivery] = await deliveriesWhen(key, webhook.id, finished(1), 20_000);
      expect(receiver.received).toHaveLength(2);
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
      const [delivery] = await deliveriesWhen(key, webhook.id, finished(1));
      await db.query(
        `UPDATE webhook_delivery SET updated_at = now() - interval '31 days' WHERE id = $1`,
        [delivery.id],
      );
      await db.query(
        `UPDATE domain_event SET relayed_at = now() - interval '31 days' WHERE id = $1`,
        [delivery.event_id],
      );
      const { OutboxRelay } = await import('../../src/webhooks/outbox-relay.js');
      await t.app.get(OutboxRelay).cleanup();
      expect((await deliveriesOf(key, webhook.id)).data).toEqual([]);
      expect(
        await db.query('SELECT id FROM domain_event WHERE id = $1', [delivery.event_id]),
      ).toEqual([]);
    });

    it('stops pending retries when the subscription is deleted', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      const queue = t.app.get<Queue>(getQueueToken(WEBHOOK_DELIVERY_QUEUE));
      // This worker takes no job until resumed, so the retry is surely still pending when
      // the subscription goes (the first attempt, already running, finishes).
      receiver.respond = async () => {
        await queue.pause(true, true);
        return 500;
      };
      try {
        await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
        const [row] = await eventually(
          () =>
            db.query(
              'SELECT id, status, attempts FROM webhook_delivery WHERE subscription_id = $1',
              [webhook.id],
            ) as Promise<Array<{ id: string; status: string; attempts: number }>>,
          (rows) => rows[0]?.attempts === 1,
        );
        expect(row.status).toBe('pending');
        const retry = `${row.id}:2`;
        await eventually(
          () => queue.getJob(retry),
          (job) => job !== null,
        );
        await t.http.delete(`/api/v1/webhooks/${webhook.id}`).set(withKey(key)).expect(204);
        await queue.resume(true);
        // The worker took the retry's job and dropped it without sending.
        await eventually(
          () => queue.getJob(retry),
          (job) => job === null,
        );
      } finally {
        await queue.resume(true);
      }
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
      const [first] = await deliveriesWhen(key, webhook.id, finished(1));
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

    /** The webhook's delivery rows as stored, oldest first. */
    const rowsOf = (webhookId: string) =>
      db.query(
        `SELECT id, status, attempts, next_attempt_at, jsonb_array_length(attempt_log) AS logged
           FROM webhook_delivery WHERE subscription_id = $1 ORDER BY created_at, id`,
        [webhookId],
      ) as Promise<
        Array<{
          id: string;
          status: string;
          attempts: number;
          next_attempt_at: Date | null;
          logged: number;
        }>
      >;

    it('ends the retries of a pending delivery it redelivers: its queued retry sends nothing', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      const queue = t.app.get<Queue>(getQueueToken(WEBHOOK_DELIVERY_QUEUE));
      // The first attempt fails and the worker takes no job until resumed: the retry waits
      // in Bull while the delivery is redelivered.
      receiver.respond = async (_request, index) => {
        if (index > 0) return 200;
        await queue.pause(true, true);
        return 500;
      };
      let redelivered = '';
      try {
        await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
        const [row] = await eventually(
          () => rowsOf(webhook.id),
          (rows) => rows[0]?.attempts === 1,
        );
        expect(row.status).toBe('pending');
        await eventually(
          () => queue.getJob(`${row.id}:2`),
          (job) => job !== null,
        );
        const res = await t.http
          .post(`/api/v1/webhooks/${webhook.id}/deliveries/${row.id}/redeliver`)
          .set(withKey(key));
        expect(res.status).toBe(202);
        redelivered = res.body.id;
        await queue.resume(true);
        await eventually(
          () => rowsOf(webhook.id),
          (rows) => rows.every((r) => r.status !== 'pending'),
        );
        // The old retry's job was taken and dropped; the sweeper re-adds nothing.
        await eventually(
          () => queue.getJob(`${row.id}:2`),
          (job) => job === null,
        );
        await new Promise((resolve) => setTimeout(resolve, 4 * RETRY_BASE_MS + 400));
      } finally {
        await queue.resume(true);
      }
      expect(receiver.received.map((r) => r.headers['x-service-delivery'])).toEqual([
        (await rowsOf(webhook.id))[0].id,
        redelivered,
      ]);
      const [old, fresh] = await rowsOf(webhook.id);
      expect(old).toMatchObject({
        status: 'failed',
        attempts: 1,
        next_attempt_at: null,
        logged: 1,
      });
      expect(fresh).toMatchObject({ id: redelivered, status: 'succeeded', attempts: 1 });
      const [shown] = (await deliveriesOf(key, webhook.id, '?status=failed')).data;
      expect(shown).toMatchObject({ id: old.id, status: 'failed', next_attempt_at: null });
      expect(shown.attempt_log).toHaveLength(1);
    });

    it('logs the attempt in flight when a pending delivery is redelivered, and schedules no other', async () => {
      const { key, webhook } = await subscribed(['build.created.v1']);
      let answerFirst: (answer: number) => void = () => undefined;
      receiver.respond = (_request, index) =>
        index > 0 ? 200 : new Promise<number>((resolve) => (answerFirst = resolve));
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
      await receiver.waitFor(() => receiver.received.length === 1);
      const [old] = await rowsOf(webhook.id);
      const res = await t.http
        .post(`/api/v1/webhooks/${webhook.id}/deliveries/${old.id}/redeliver`)
        .set(withKey(key));
      expect(res.status).toBe(202);
      // The attempt sent before the redeliver committed fails now: logged, but never retried.
      answerFirst(500);
      await eventually(
        () => rowsOf(webhook.id),
        (rows) => rows.length === 2 && rows.every((r) => r.status !== 'pending' && r.attempts > 0),
      );
      await new Promise((resolve) => setTimeout(resolve, 4 * RETRY_BASE_MS + 400));
      expect(receiver.received.map((r) => r.headers['x-service-delivery'])).toEqual([
        old.id,
        res.body.id,
      ]);
      expect(await rowsOf(webhook.id)).toEqual([
        { id: old.id, status: 'failed', attempts: 1, next_attempt_at: null, logged: 1 },
        expect.objectContaining({ id: res.body.id, status: 'succeeded', attempts: 1 }),
      ]);
    });
  });
});
