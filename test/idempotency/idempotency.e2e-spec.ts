import { Controller, Module, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RequireScopes } from '../../src/routes/access.decorators.js';
import { BuildQueue } from '../../src/builds/build-queue.js';
import { Transactions } from '../../src/database/transactions.js';
import { IdempotencyCleanup } from '../../src/idempotency/idempotency-cleanup.js';
import { IdempotencyStore } from '../../src/idempotency/idempotency.store.js';
import { Project } from '../../src/projects/entities/project.entity.js';
import { createProject, createRelease } from '../factories/catalog.js';
import { createApiKey, createTenant } from '../factories/organizations.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import { freshMinuteWindow } from '../support/minute-window.js';
import { pollUntil } from '../support/service-control.js';

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

  /**
   * Holds an organization's build-queue lock in a transaction, so its build requests wait,
   * until `commitTransaction` (or `rollbackTransaction`).
   */
  async function holdBuildQueue(organizationId: string) {
    let end!: (commit: boolean) => void;
    const ended = new Promise<boolean>((resolve) => (end = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    let active = true;
    const transaction = t.app
      .get(Transactions)
      .begin(async () => {
        await t.app.get(BuildQueue).lock(organizationId);
        locked();
        if (!(await ended)) throw new Error('rolled back');
      })
      .catch(() => undefined)
      .finally(() => (active = false));
    await Promise.race([holding, transaction]);
    const finish = async (commit: boolean) => {
      end(commit);
      await transaction;
    };
    return {
      get isTransactionActive() {
        return active;
      },
      commitTransaction: () => finish(true),
      rollbackTransaction: () => finish(false),
      release: () => transaction,
    };
  }

  const buildCount = async (organizationId: string) =>
    (
      await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM build WHERE organization_id = $1', [organizationId])
    )[0].n;

  /** The stored record of `key` for `organizationId`, or undefined. */
  const recordOf = async (organizationId: string, key: string) =>
    (
      await t.app
        .get(DataSource)
        .query(
          'SELECT fingerprint, response_status FROM idempotency_record WHERE owner = $1 AND key = $2',
          [`org:${organizationId}`, key],
        )
    )[0] as { fingerprint: string; response_status: number | null } | undefined;

  /** Waits until the request holding `key` has claimed it (its record exists, unanswered). */
  const claimed = (organizationId: string, key: string) =>
    pollUntil(
      async () => (await recordOf(organizationId, key))?.response_status === null,
      `the claim of ${key}`,
      10_000,
    );

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
    // The build.created.v1 event is written once, with the first request's change.
    const events = await t.app
      .get(DataSource)
      .query('SELECT type FROM domain_event WHERE organization_id = $1', [org.id]);
    expect(events).toEqual([{ type: 'build.created.v1' }]);
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

  const REUSED = { error: 'idempotency_key_reused', message: expect.any(String), details: {} };

  it('answers 422 for the same key with another body', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    const send = (name: string) =>
      t.http.post('/api/v1/builds').set(withKey(key)).set('Idempotency-Key', 'k').send({ name });
    expect((await send('one')).status).toBe(202);
    const other = await send('two');
    expect(other.status).toBe(422);
    expect(other.body).toEqual(REUSED);
    expect(await buildCount(org.id)).toBe(1);
  });

  it('answers 422 for the same key and body on another path, before that route runs', async () => {
    const { org, key } = await createTenant(t, ['builds:create', 'testruns:create']);
    const body = { name: 'same' };
    await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 'p')
      .send(body)
      .expect(202);
    // The same bytes to another route, and to the same route with a query string.
    for (const path of ['/api/v1/testruns', '/api/v1/builds?again=1']) {
      const other = await t.http
        .post(path)
        .set(withKey(key))
        .set('Idempotency-Key', 'p')
        .send(body);
      expect({ path, status: other.status }).toEqual({ path, status: 422 });
      expect(other.body).toEqual(REUSED);
    }
    expect(await buildCount(org.id)).toBe(1);
    const runs = await t.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM test_run WHERE organization_id = $1', [org.id]);
    expect(runs[0].n).toBe(0);
  });

  it('ignores Idempotency-Key on another method: a PATCH with a used key runs, neither replayed nor refused', async () => {
    // Only POST honours the key (CONTRACT §8), so another method cannot collide with it.
    const { org, key } = await createTenant(t, ['builds:create', 'builds:update']);
    const created = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 'm')
      .send({ name: 'before' })
      .expect(202);
    const patched = await t.http
      .patch(`/api/v1/builds/${created.body.id}`)
      .set(withKey(key))
      .set('Idempotency-Key', 'm')
      .send({ name: 'after' });
    expect(patched.status).toBe(200);
    expect(patched.headers['idempotent-replayed']).toBeUndefined();
    expect(patched.body).toMatchObject({ id: created.body.id, name: 'after' });
    // The POST's record is untouched: repeating the POST still replays the first answer.
    const replay = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', 'm')
      .send({ name: 'before' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(created.body);
    expect(await buildCount(org.id)).toBe(1);
  });

  it('refuses an empty Idempotency-Key with 400 naming the header, and stores nothing', async () => {
    const { org, key } = await createTenant(t, ['builds:create']);
    const res = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .set('Idempotency-Key', '')
      .send({ name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      message: expect.any(String),
      details: {
        field: 'Idempotency-Key',
        errors: [{ field: 'Idempotency-Key', message: expect.any(String) }],
      },
    });
    expect(await buildCount(org.id)).toBe(0);
    expect(await recordOf(org.id, '')).toBeUndefined();
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
    // Exactly one ran; each other one either waited (409) or replayed its answer.
    const ran = responses.filter(
      (r) => r.status === 202 && r.headers['idempotent-replayed'] === undefined,
    );
    expect(ran).toHaveLength(1);
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
      await claimed(org.id, 'slow');
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
      const answered = await first;
      expect(answered.status).toBe(202);
      expect(answered.headers['idempotent-replayed']).toBeUndefined();
      expect(await buildCount(org.id)).toBe(1);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('leaves a claim taken over by a retry to the retry: the first request can neither answer, release nor run with it', async () => {
    const store = t.app.get(IdempotencyStore);
    const transactions = t.app.get(Transactions);
    const db = t.app.get(DataSource);
    const owner = 'org:00000000-0000-4000-8000-00000000c1a1';
    const first = await store.claim(owner, 'slow-start', 'f'.repeat(64));
    expect(first.kind).toBe('claimed');
    // The first request has not reached its transaction for longer than a start can take.
    await db.query(
      `UPDATE idempotency_record SET locked_at = now() - interval '1 minute' WHERE owner = $1`,
      [owner],
    );
    const retry = await store.claim(owner, 'slow-start', 'f'.repeat(64));
    expect(retry.kind).toBe('claimed');
    const [firstToken, retryToken] = [first, retry].map((c) =>
      c.kind === 'claimed' ? c.token : '',
    );
    expect(retryToken).not.toBe(firstToken);

    // The first request, starting late, finds its claim gone (it answers 409, runs nothing);
    // failing, it releases nothing of the retry's; it cannot store its answer over the retry's.
    await transactions.begin(async () =>
      expect(await store.holdClaim(owner, 'slow-start', firstToken)).toBe(false),
    );
    await store.release(owner, 'slow-start', firstToken);
    expect(await store.complete(owner, 'slow-start', firstToken, 201, { from: 'first' })).toBe(
      false,
    );
    // The retry holds, runs and answers.
    await transactions.begin(async () => {
      expect(await store.holdClaim(owner, 'slow-start', retryToken)).toBe(true);
      expect(await store.complete(owner, 'slow-start', retryToken, 201, { from: 'retry' })).toBe(
        true,
      );
    });
    expect(await store.claim(owner, 'slow-start', 'f'.repeat(64))).toEqual({
      kind: 'replay',
      status: 201,
      body: { from: 'retry' },
    });
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
      await claimed(org.id, 'alive');
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

  describe('stores nothing for a request refused before the handler, so the key stays usable', () => {
    /** POSTs a build with `key` under Idempotency-Key `idem` (through `app`, default `t`). */
    const post = (key: string, idem: string, app: TestApp = t) =>
      app.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .set('Idempotency-Key', idem)
        .send({ name: 'n' });

    /** The refused key is free: a request allowed now runs (202, not a replay) under it. */
    async function expectKeyUsable(organizationId: string, key: string, idem: string, app = t) {
      expect(await recordOf(organizationId, idem)).toBeUndefined();
      const ok = await post(key, idem, app);
      expect(ok.status).toBe(202);
      expect(ok.headers['idempotent-replayed']).toBeUndefined();
      expect(await buildCount(organizationId)).toBe(1);
    }

    it('refused by authentication (401, a deleted key of the organization)', async () => {
      const { org, key } = await createTenant(t, ['builds:create']);
      const deleted = await createApiKey(t, org.id, ['builds:create']);
      await t.http.delete(`/internal/v1/api-keys/${deleted.id}`).set(OPERATOR).expect(204);
      const refused = await post(deleted.key, 'refused-401');
      expect(refused.status).toBe(401);
      // A 401 has no organization: no record under any owner.
      const rows = await t.app
        .get(DataSource)
        .query(`SELECT owner FROM idempotency_record WHERE key = 'refused-401'`);
      expect(rows).toEqual([]);
      await expectKeyUsable(org.id, key, 'refused-401');
    });

    it('refused by scope (403 insufficient_scope)', async () => {
      const { org, key } = await createTenant(t, ['builds:create']);
      const reader = await createApiKey(t, org.id, ['builds:read']);
      const refused = await post(reader.key, 'refused-scope');
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('insufficient_scope');
      await expectKeyUsable(org.id, key, 'refused-scope');
    });

    it('refused by plan (403 plan_required), usable once the plan allows it', async () => {
      const { org, key } = await createTenant(t, ['builds:create'], { plan: 'basic' });
      const refused = await post(key, 'refused-plan');
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('plan_required');
      await t.http
        .patch(`/internal/v1/organizations/${org.id}`)
        .set(OPERATOR)
        .send({ plan: 'pro' })
        .expect(200);
      await expectKeyUsable(org.id, key, 'refused-plan');
    });

    it('refused by the monthly quota (429 month), usable once the limit is raised', async () => {
      const { org, key } = await createTenant(t, ['builds:create'], { monthly_call_limit: 1 });
      await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      const refused = await post(key, 'refused-month');
      expect(refused.status).toBe(429);
      expect(refused.body.details.window).toBe('month');
      await t.http
        .patch(`/internal/v1/organizations/${org.id}`)
        .set(OPERATOR)
        .send({ monthly_call_limit: 10 })
        .expect(200);
      await expectKeyUsable(org.id, key, 'refused-month');
    });

    it('refused by the per-minute limit (429 minute), usable on a replica with room', async () => {
      // The memory store counts per process: the second replica's minute is still empty.
      const limited = await startApp({ RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_STORE: 'memory' });
      const replica = await startApp({ RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_STORE: 'memory' });
      try {
        const { org, key } = await createTenant(t, ['builds:create']);
        await freshMinuteWindow(10_000);
        await limited.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
        const refused = await post(key, 'refused-minute', limited);
        expect(refused.status).toBe(429);
        expect(refused.body.details.window).toBe('minute');
        await expectKeyUsable(org.id, key, 'refused-minute', replica);
      } finally {
        await Promise.all([limited.close(), replica.close()]);
      }
    });
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

  it('deletes a backlog of expired keys in statements of at most 10,000 rows, to the last', async () => {
    const db = t.app.get(DataSource);
    const owner = 'org:00000000-0000-4000-8000-00000000ba7c';
    await db.query(
      `INSERT INTO idempotency_record (owner, key, fingerprint, response_status, response_body, locked_at, created_at)
       SELECT $1, 'k' || n, repeat('f', 64), 201, 'null', now(), now() - interval '2 days'
         FROM generate_series(1, 25001) AS n`,
      [owner],
    );
    const deleted = await t.app.get(IdempotencyCleanup).purge();
    expect(deleted).toBeGreaterThanOrEqual(25_001);
    const [left] = await db.query(
      'SELECT count(*)::int AS n FROM idempotency_record WHERE owner = $1',
      [owner],
    );
    expect(left.n).toBe(0);
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
    // Exactly the records past the retention are deleted (ours and any a file before left).
    const [{ n: expired }] = await db.query(
      `SELECT count(*)::int AS n FROM idempotency_record WHERE created_at < now() - interval '24 hours'`,
    );
    expect(expired).toBeGreaterThanOrEqual(1);
    expect(await t.app.get(IdempotencyCleanup).purge()).toBe(expired);
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
