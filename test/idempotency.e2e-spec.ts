import { Controller, Module, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RequireScopes } from '../src/auth/access.decorators.js';
import { Transactions } from '../src/database/transactions.js';
import { IdempotencyCleanup } from '../src/idempotency/idempotency-cleanup.js';
import { Project } from '../src/projects/entities/project.entity.js';
import { createProject, createRelease } from './factories/catalog.js';
import { createTenant } from './factories/organizations.js';
import { OPERATOR, startApp, withKey, type TestApp } from './support/app.js';

/** A handler that writes, then fails on our side: the write must roll back with the key. */
@Controller('idempotency-probe')
class FailingWriteController {
  constructor(private readonly transactions: Transactions) {}

  @Post()
  @RequireScopes('builds:create')
  async write(): Promise<never> {
    await this.transactions.run((manager) =>
      manager.query(`UPDATE project SET description = 'written by the failed request'`),
    );
    throw new Error('the disk is on fire');
  }
}

@Module({ controllers: [FailingWriteController] })
class FailingWriteModule {}

describe('Idempotency-Key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, [FailingWriteModule]);
  });
  afterAll(() => t.close());

  /** Holds an organization's build-queue lock in a transaction, so its build requests wait. */
  async function holdBuildQueue(organizationId: string) {
    const runner = t.app.get(DataSource).createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `build-queue:${organizationId}`,
    ]);
    return runner;
  }

  const buildCount = async (organizationId: string) =>
    (
      await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM build WHERE organization_id = $1', [organizationId])
    )[0].n;

  it('replays the first response (status and body) without doing anything again', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    const send = () =>
      t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'build-1042')
        .send({ name: 'b' });
    const first = await send();
    expect(first.status).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await send();
    expect(second.status).toBe(202);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await buildCount(org.id)).toBe(1);
  });

  it('replays a 201 as a 201', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    const release = await createRelease(t, (await createProject(t, org.id)).id);
    const send = () =>
      t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'rc')
        .send({ name: 'rc', release_id: release.id });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
  });

  it('answers 422 for the same key with another body or path', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 'k')
      .send({ name: 'one' })
      .expect(202);
    const other = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 'k')
      .send({ name: 'two' });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      error: 'idempotency_key_reused',
      message: expect.any(String),
      details: {},
    });
    expect(await buildCount(org.id)).toBe(1);
  });

  it('keeps keys apart per organization', async () => {
    const a = await createTenant(t, ['builds:create']);
    const b = await createTenant(t, ['builds:create']);
    for (const tenant of [a, b]) {
      const res = await t.http
        .post('/api/v1/builds')
        .set(withKey(tenant.key))
        .set('Idempotency-Key', 'shared')
        .send({ name: 'x' });
      expect(res.status).toBe(202);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
  });

  it('creates one build when two identical requests race', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    const send = () =>
      t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'race')
        .send({ name: 'racer' });
    const responses = await Promise.all([send(), send(), send(), send()]);
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(1);
    for (const res of responses) {
      expect([202, 409]).toContain(res.status);
      if (res.status === 409) expect(res.body.error).toBe('idempotency_key_in_use');
    }
    expect(await buildCount(org.id)).toBe(1);
    const ids = new Set(responses.filter((r) => r.status === 202).map((r) => r.body.id));
    expect(ids.size).toBe(1);
  });

  it('answers 409 while the first request is still in flight', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    // Hold the organization's queue lock so the first request stays in flight.
    const runner = await holdBuildQueue(org.id);
    try {
      const first = t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'slow')
        .send({ name: 's' })
        .then((r) => r);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'slow')
        .send({ name: 's' });
      expect(second.status).toBe(409);
      expect(second.body.error).toBe('idempotency_key_in_use');
      const mismatch = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'slow')
        .send({ name: 'other' });
      expect(mismatch.status).toBe(422);
      await runner.commitTransaction();
      expect((await first).status).toBe(202);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('lets the retry of a request whose process died take its claim over at once, never a live one', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    const db = t.app.get(DataSource);
    const send = () =>
      t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'died')
        .send({ name: 'd' });
    const leaveUnanswered = (age: string) =>
      db.query(
        `UPDATE idempotency_record SET response_status = NULL, response_body = NULL,
                locked_at = now() - $2::interval WHERE owner = $1 AND key = 'died'`,
        [`org:${org.id}`, age],
      );
    expect((await send()).status).toBe(202);
    // What a process killed inside the handler leaves: a claim without an answer, whose lock
    // died with its connection. Just made, it may still be on its way to its transaction.
    await leaveUnanswered('1 second');
    expect((await send()).status).toBe(409);
    await leaveUnanswered('11 seconds');
    const retry = await send();
    expect(retry.status).toBe(202);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();

    // A live request holds its claim however old: its retry waits (409).
    const runner = await holdBuildQueue(org.id);
    try {
      const slow = t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'alive')
        .send({ name: 'a' })
        .then((r) => r);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await db.query(
        `UPDATE idempotency_record SET locked_at = now() - interval '1 minute'
          WHERE owner = $1 AND key = 'alive'`,
        [`org:${org.id}`],
      );
      const again = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'alive')
        .send({ name: 'a' });
      expect(again.status).toBe(409);
      await runner.commitTransaction();
      expect((await slow).status).toBe(202);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('stores nothing for a request refused by validation, so the key stays usable', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    const invalid = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 'v')
      .send({});
    expect(invalid.status).toBe(400);
    const valid = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 'v')
      .send({ name: 'ok' });
    expect(valid.status).toBe(202);
    expect(valid.headers['idempotent-replayed']).toBeUndefined();
    expect(await buildCount(org.id)).toBe(1);
  });

  it('stores nothing for a request refused by authentication or scope', async () => {
    const { key } = await createTenant(t, ['builds:read']);
    const refused = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 's')
      .send({ name: 'x' });
    expect(refused.status).toBe(403);
    const rows = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM idempotency_record WHERE key = 's'`);
    expect(rows[0].n).toBe(0);
  });

  it('replays a conflict the handler answered (409), which changed nothing', async () => {
    const tenant = await createTenant(t, ['testruns:create', 'testruns:update', 'results:submit']);
    const project = await createProject(t, tenant.org.id);
    const run = await t.http
      .post('/api/v1/testruns')
      .set(withKey(tenant.key))
      .send({ project_id: project.id, name: 'r' });
    await t.http
      .patch(`/api/v1/testruns/${run.body.id}`)
      .set(withKey(tenant.key))
      .send({ status: 'completed' })
      .expect(200);
    const send = () =>
      t.http
        .post(`/api/v1/testruns/${run.body.id}/results`)
        .set(withKey(tenant.key))
        .set('Idempotency-Key', 'late')
        .send({ results: [{ automation_id: 'a', status: 'passed' }] });
    const first = await send();
    expect(first.status).toBe(409);
    const second = await send();
    expect(second.status).toBe(409);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('stores nothing for input the handler found invalid, so the fixed request can reuse the key', async () => {
    const tenant = await createTenant(t, ['testruns:create', 'results:submit']);
    const project = await createProject(t, tenant.org.id);
    const run = await t.http
      .post('/api/v1/testruns')
      .set(withKey(tenant.key))
      .send({ project_id: project.id, name: 'r' });
    const send = (status: string) =>
      t.http
        .post(`/api/v1/testruns/${run.body.id}/results`)
        .set(withKey(tenant.key))
        .set('Idempotency-Key', 'fix-me')
        .send({ results: [{ automation_id: 'a', status }] });
    expect((await send('bogus')).status).toBe(400);
    const fixed = await send('passed');
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('rolls the change back with the key when the handler fails on our side', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    await createProject(t, org.id, { description: 'untouched' });
    const res = await t.http
      .post('/api/v1/idempotency-probe')
      .set(withKey(key))
      .set('Idempotency-Key', 'boom')
      .send({});
    expect(res.status).toBe(500);
    const projects = await t.app
      .get(DataSource)
      .getRepository(Project)
      .findBy({ organizationId: org.id });
    expect(projects.map((p) => p.description)).toEqual(['untouched']);
    // Nothing was stored for the key: a retry runs again (and fails again) rather than replaying.
    const retry = await t.http
      .post('/api/v1/idempotency-probe')
      .set(withKey(key))
      .set('Idempotency-Key', 'boom')
      .send({});
    expect(retry.status).toBe(500);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a key longer than 255 characters', async () => {
    const { key } = await createTenant(t, ['builds:create']);
    const res = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 'k'.repeat(256))
      .send({ name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('Idempotency-Key');
    const ok = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 'k'.repeat(255))
      .send({ name: 'x' });
    expect(ok.status).toBe(202);
  });

  it('works on the internal API too', async () => {
    const send = () =>
      t.http
        .post('/internal/v1/organizations')
        .set(OPERATOR)
        .set('Idempotency-Key', `org-${process.pid}`)
        .send({ name: 'Once', plan: 'pro' });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers['idempotent-replayed']).toBe('true');
  });

  it('forgets keys after 24 hours, and the cleanup deletes them', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    const send = () =>
      t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', 'old')
        .send({ name: 'x' });
    await send().expect(202);
    const db = t.app.get(DataSource);
    await db.query(
      `UPDATE idempotency_record SET created_at = now() - interval '25 hours' WHERE owner = $1`,
      [`org:${org.id}`],
    );
    const again = await send();
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await buildCount(org.id)).toBe(2);

    await db.query(
      `UPDATE idempotency_record SET created_at = now() - interval '25 hours' WHERE owner = $1`,
      [`org:${org.id}`],
    );
    expect(await t.app.get(IdempotencyCleanup).purge()).toBeGreaterThanOrEqual(1);
    const left = await db.query(
      'SELECT count(*)::int AS n FROM idempotency_record WHERE owner = $1',
      [`org:${org.id}`],
    );
    expect(left[0].n).toBe(0);
  });

  describe('secrets shown once', () => {
    /** Tables (and row counts) whose rows, as text, hold `secret`. */
    async function tablesHolding(secret: string): Promise<string[]> {
      const db = t.app.get(DataSource);
      const tables: Array<{ name: string }> = await db.query(
        `SELECT quote_ident(table_name) AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
      );
      const holding: string[] = [];
      for (const { name } of tables) {
        const [row] = await db.query(
          `SELECT count(*)::int AS n FROM ${name} t WHERE strpos(t::text, $1) > 0`,
          [secret],
        );
        if (row.n > 0) holding.push(name);
      }
      return holding;
    }

    it('an API key created with an Idempotency-Key is stored only as its hash; the replay answers it as null', async () => {
      const { org } = await createTenant(t);
      const send = () =>
        t.http
          .post(`/internal/v1/organizations/${org.id}/api-keys`)
          .set(OPERATOR)
          .set('Idempotency-Key', 'key-once')
          .send({ name: 'pipeline', scopes: ['builds:read'] });
      const first = await send();
      expect(first.status).toBe(201);
      expect(first.body.key).toMatch(/^svc_live_[0-9a-f]{32,}$/);

      expect(await tablesHolding(first.body.key)).toEqual([]);
      expect(await tablesHolding(first.body.key.slice('svc_live_'.length))).toEqual([]);

      const replay = await send();
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual({ ...first.body, key: null });
      // The key the first response showed is the one that works; the replay made no other.
      await t.http.get('/api/v1/organizations').set(withKey(first.body.key)).expect(200);
      const keys = await t.http.get(`/internal/v1/organizations/${org.id}/api-keys`).set(OPERATOR);
      expect(keys.body.data.map((k: { id: string }) => k.id)).toContain(first.body.id);
      expect(keys.body.pagination.total).toBe(2);
    });

    it('a webhook secret is kept only on its subscription (delivery signs with it); the replay answers it as null', async () => {
      const { key } = await createTenant(t, ['webhooks:manage']);
      const send = () =>
        t.http
          .post('/api/v1/webhooks')
          .set(withKey(key))
          .set('Idempotency-Key', 'hook-once')
          .send({ url: 'http://127.0.0.1:9/tm', events: ['*'] });
      const first = await send();
      expect(first.status).toBe(201);
      expect(first.body.secret).toMatch(/^whsec_/);
      expect(await tablesHolding(first.body.secret)).toEqual(['webhook_subscription']);

      const replay = await send();
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual({ ...first.body, secret: null });
    });
  });
});
