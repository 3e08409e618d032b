import { createTenant } from '../factories/organizations.js';
import { HTTPS, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import { eventually, Receiver } from '../support/receiver.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';
const SCOPES = ['builds:create', 'webhooks:manage'];

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  attempt_log: Array<{ attempt: number; response_status: number | null; response_body: string }>;
}

/**
 * The console's routes to an organization's webhooks (`/internal/v1`): the same service, rules
 * and secret-once behaviour as `/api/v1/webhooks`, each subscription reachable only through its
 * own organization.
 */
describe('internal API: webhooks', () => {
  let t: TestApp;
  let receiver: Receiver;
  let url: string;

  beforeAll(async () => {
    // The worker too (relay and delivery); retries far off, so a failed attempt stays the only one.
    t = await startApp({
      APP_ROLE: 'all',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_BASE_MS: '600000',
      WEBHOOK_TIMEOUT_MS: '2000',
    });
    receiver = new Receiver();
    url = await receiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function subscribed(events: string[] = ['build.created.v1']) {
    const tenant = await createTenant(t, SCOPES);
    const res = await t.http
      .post(`/internal/v1/organizations/${tenant.org.id}/webhooks`)
      .set(OPERATOR)
      .send({ url, events, description: 'console' });
    expect(res.status).toBe(201);
    return { ...tenant, webhook: res.body as { id: string; secret: string } };
  }

  const deliveriesOf = async (webhookId: string) =>
    (await t.http.get(`/internal/v1/webhooks/${webhookId}/deliveries`).set(OPERATOR).expect(200))
      .body as { data: Delivery[]; pagination: { total: number } };

  /** Causes `build.created.v1` through the public API and waits for its finished attempts. */
  async function delivered(key: string, webhookId: string, attempts = 1): Promise<Delivery[]> {
    await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' }).expect(202);
    return (
      await eventually(
        () => deliveriesOf(webhookId),
        (page) => page.data.some((d) => d.attempts >= attempts),
      )
    ).data;
  }

  it('creates a subscription with its secret shown once, and lists it without the secret', async () => {
    const { org, key, webhook } = await subscribed();
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook).toMatchObject({ url, events: ['build.created.v1'], active: true });

    const listed = await t.http
      .get(`/internal/v1/organizations/${org.id}/webhooks`)
      .set(OPERATOR)
      .expect(200);
    expect(listed.body.pagination).toMatchObject({ total: 1, offset: 0 });
    expect(listed.body.data).toEqual([
      {
        id: webhook.id,
        url,
        events: ['build.created.v1'],
        description: 'console',
        active: true,
        created_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(webhook.secret);

    const read = await t.http.get(`/internal/v1/webhooks/${webhook.id}`).set(OPERATOR).expect(200);
    expect(read.body).toEqual({ ...listed.body.data[0], organization_id: org.id });

    // The same subscription the organization's pipelines see through the public API.
    const publicList = await t.http.get('/api/v1/webhooks').set(withKey(key)).expect(200);
    expect(publicList.body.data).toEqual(listed.body.data);
  });

  it('answers an idempotent replay of the creation without the secret', async () => {
    const { org } = await createTenant(t, SCOPES);
    const send = () =>
      t.http
        .post(`/internal/v1/organizations/${org.id}/webhooks`)
        .set(OPERATOR)
        .set('Idempotency-Key', 'console-create-1')
        .send({ url, events: ['*'] });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_/);
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual({ ...first.body, secret: null });
  });

  it('refuses what the public API refuses, naming the field', async () => {
    const { org } = await createTenant(t, SCOPES);
    const path = `/internal/v1/organizations/${org.id}/webhooks`;
    for (const [body, field] of [
      [{ url: 'http://10.1.2.3/hook', events: ['*'] }, 'url'],
      [{ url: 'https://127.0.0.2/hook', events: ['*'] }, 'url'],
      [{ url, events: ['build.created.v1', 'build.exploded.v1'] }, 'events[1]'],
      [{ url, events: [] }, 'events'],
      [{ url, events: ['*'], secret: 'mine' }, 'secret'],
    ] as const) {
      const res = await t.http.post(path).set(OPERATOR).send(body);
      expect({
        body,
        status: res.status,
        error: res.body.error,
        field: res.body.details?.field,
      }).toEqual({ body, status: 400, error: 'invalid_request', field });
    }
    const listed = await t.http.get(path).set(OPERATOR).expect(200);
    expect(listed.body.data).toEqual([]);
    const badPage = await t.http.get(`${path}?limit=0`).set(OPERATOR);
    expect(badPage.status).toBe(400);
    const { webhook } = await subscribed();
    const badStatus = await t.http
      .get(`/internal/v1/webhooks/${webhook.id}/deliveries?status=lost`)
      .set(OPERATOR);
    expect({ status: badStatus.status, field: badStatus.body.details?.field }).toEqual({
      status: 400,
      field: 'status',
    });
    const badActive = await t.http
      .patch(`/internal/v1/webhooks/${webhook.id}`)
      .set(OPERATOR)
      .send({ active: 'yes' });
    expect({ status: badActive.status, field: badActive.body.details?.field }).toEqual({
      status: 400,
      field: 'active',
    });
  });

  it('lists deliveries with their attempt logs and redelivers an event as a new delivery', async () => {
    const { webhook, key } = await subscribed();
    receiver.respond = () => ({ status: 500, body: 'not today' });
    const [failed] = await delivered(key, webhook.id);
    expect(failed).toMatchObject({
      status: 'pending',
      attempts: 1,
      event_type: 'build.created.v1',
    });
    expect(failed.attempt_log).toEqual([
      expect.objectContaining({ attempt: 1, response_status: 500, response_body: 'not today' }),
    ]);

    receiver.respond = () => 200;
    const redelivered = await t.http
      .post(`/internal/v1/webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`)
      .set(OPERATOR);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ event_id: failed.event_id, status: 'pending' });
    expect(redelivered.body.id).not.toBe(failed.id);

    const after = await eventually(
      () => deliveriesOf(webhook.id),
      (page) => page.data.some((d) => d.id === redelivered.body.id && d.status === 'succeeded'),
    );
    // Newest first: the redelivery above the delivery it repeats, whose retries it ended
    // (CONTRACT §7), its attempt log kept.
    expect(after.data.map((d) => [d.id, d.status, d.next_attempt_at])).toEqual([
      [redelivered.body.id, 'succeeded', null],
      [failed.id, 'failed', null],
    ]);
    expect(after.data[1].attempt_log).toEqual(failed.attempt_log);
    expect(receiver.received.filter((r) => r.json.id === failed.event_id)).toHaveLength(2);
  });

  it('switches a subscription off and back on', async () => {
    const { webhook, key } = await subscribed();
    const off = await t.http
      .patch(`/internal/v1/webhooks/${webhook.id}`)
      .set(OPERATOR)
      .send({ active: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: webhook.id, active: false });
    expect(off.body).not.toHaveProperty('secret');
    const listed = await t.http.get('/api/v1/webhooks').set(withKey(key)).expect(200);
    expect(listed.body.data[0].active).toBe(false);

    const on = await t.http
      .patch(`/internal/v1/webhooks/${webhook.id}`)
      .set(OPERATOR)
      .send({ active: true });
    expect(on.body).toMatchObject({ id: webhook.id, active: true });
    receiver.respond = () => 200;
    const [delivery] = await delivered(key, webhook.id);
    expect(delivery.status).toBe('succeeded');
  });

  it('deletes a subscription; it is gone from both APIs', async () => {
    const { org, key, webhook } = await subscribed();
    await t.http.delete(`/internal/v1/webhooks/${webhook.id}`).set(OPERATOR).expect(204);
    const listed = await t.http
      .get(`/internal/v1/organizations/${org.id}/webhooks`)
      .set(OPERATOR)
      .expect(200);
    expect(listed.body.data).toEqual([]);
    expect((await t.http.get('/api/v1/webhooks').set(withKey(key))).body.data).toEqual([]);
    const again = await t.http.delete(`/internal/v1/webhooks/${webhook.id}`).set(OPERATOR);
    expect(again.status).toBe(404);
    const read = await t.http.get(`/internal/v1/webhooks/${webhook.id}`).set(OPERATOR);
    expect(read.status).toBe(404);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    const { webhook } = await subscribed();
    for (const [method, path, body] of [
      ['get', `/internal/v1/organizations/${UNKNOWN_ID}/webhooks`],
      ['post', `/internal/v1/organizations/${UNKNOWN_ID}/webhooks`, { url, events: ['*'] }],
      ['post', '/internal/v1/organizations/not-an-id/webhooks', { url, events: ['*'] }],
      ['get', `/internal/v1/webhooks/${UNKNOWN_ID}`],
      ['patch', `/internal/v1/webhooks/${UNKNOWN_ID}`, { active: true }],
      ['delete', `/internal/v1/webhooks/${UNKNOWN_ID}`],
      ['delete', '/internal/v1/webhooks/not-an-id'],
      ['get', `/internal/v1/webhooks/${UNKNOWN_ID}/deliveries`],
      ['post', `/internal/v1/webhooks/${UNKNOWN_ID}/deliveries/${UNKNOWN_ID}/redeliver`],
      ['post', `/internal/v1/webhooks/${webhook.id}/deliveries/${UNKNOWN_ID}/redeliver`],
      ['post', `/internal/v1/webhooks/${webhook.id}/deliveries/not-an-id/redeliver`],
    ] as const) {
      const req = t.http[method](path).set(OPERATOR);
      const res = await (body ? req.send(body) : req);
      expect({ method, path, status: res.status, error: res.body.error }).toEqual({
        method,
        path,
        status: 404,
        error: 'not_found',
      });
    }
  });

  it('reaches a subscription and its deliveries only through their own organization', async () => {
    const a = await subscribed();
    const b = await subscribed();
    receiver.respond = () => 200;
    const [deliveryOfA] = await delivered(a.key, a.webhook.id);

    // B's list holds B's subscription only.
    const listedB = await t.http
      .get(`/internal/v1/organizations/${b.org.id}/webhooks`)
      .set(OPERATOR)
      .expect(200);
    expect(listedB.body.data.map((w: { id: string }) => w.id)).toEqual([b.webhook.id]);

    // A's delivery through B's subscription: no such delivery there.
    const crossed = await t.http
      .post(`/internal/v1/webhooks/${b.webhook.id}/deliveries/${deliveryOfA.id}/redeliver`)
      .set(OPERATOR);
    expect(crossed.status).toBe(404);
    expect((await deliveriesOf(b.webhook.id)).data).toEqual([]);
    // And A's subscription stays out of B's pipelines' reach.
    const viaB = await t.http
      .get(`/api/v1/webhooks/${a.webhook.id}/deliveries`)
      .set(withKey(b.key));
    expect(viaB.status).toBe(404);
    expect((await deliveriesOf(a.webhook.id)).data.map((d) => d.id)).toEqual([deliveryOfA.id]);
  });

  it('refuses every route without the operator token or a session', async () => {
    const { org, webhook } = await subscribed();
    for (const [method, path] of [
      ['get', `/internal/v1/organizations/${org.id}/webhooks`],
      ['post', `/internal/v1/organizations/${org.id}/webhooks`],
      ['get', `/internal/v1/webhooks/${webhook.id}`],
      ['patch', `/internal/v1/webhooks/${webhook.id}`],
      ['delete', `/internal/v1/webhooks/${webhook.id}`],
      ['get', `/internal/v1/webhooks/${webhook.id}/deliveries`],
      ['post', `/internal/v1/webhooks/${webhook.id}/deliveries/${UNKNOWN_ID}/redeliver`],
    ] as const) {
      const res = await t.http[method](path).set(HTTPS).send({});
      expect({ method, path, status: res.status, error: res.body.error }).toEqual({
        method,
        path,
        status: 401,
        error: 'unauthorized',
      });
    }
    const listed = await t.http
      .get(`/internal/v1/organizations/${org.id}/webhooks`)
      .set(OPERATOR)
      .expect(200);
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([webhook.id]);
  });
});
