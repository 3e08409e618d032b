import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  call,
  createDrillTenant,
  DRILL_ADMIN_TOKEN,
  expectCall,
  pollUntil,
  RestartableService,
  type JsonResponse,
} from '../support/service-control.js';

/*
 * Drill R1, "no result lost or duplicated": eight CI shards post result batches into one run
 * while the API process is SIGKILLed twice mid-stream and restarted on the same port. Each
 * batch carries its own Idempotency-Key and is retried (network error, 5xx, 409
 * idempotency_key_in_use) with that same key until accepted. Afterwards PostgreSQL must hold
 * every result exactly once and the run's counts must be exact.
 */

const SHARDS = 8;
const BATCHES_PER_SHARD = 20;
const RESULTS_PER_BATCH = 40;
/** Fewer cases than results per shard: later batches report again on a shard's first cases. */
const CASES_PER_SHARD = 600;
/** Every this-many-th batch's answer is treated as lost and the batch sent again. */
const LOST_ANSWER_EVERY = 5;
const KILLS = 2;
const STATUSES = ['passed', 'failed', 'blocked', 'skipped', 'retest'] as const;
const COUNT_KEYS = ['passed', 'failed', 'blocked', 'skipped', 'retest', 'untested'] as const;
const SCOPES = ['testruns:create', 'testruns:read', 'results:submit', 'results:read'];
/** A batch not accepted within this long fails the drill (the drill itself must stay < 60 s). */
const BATCH_DEADLINE_MS = 30_000;

interface SentResult {
  automation_id: string;
  status: (typeof STATUSES)[number];
  retries: number;
  /** Unique per result ever sent: what tells a duplicate row from a second result of a case. */
  message: string;
}

/** Shard `s`'s batch `b`: deterministic, so the expected final state can be computed. */
function batchOf(s: number, b: number): SentResult[] {
  return Array.from({ length: RESULTS_PER_BATCH }, (_, i) => {
    const n = b * RESULTS_PER_BATCH + i;
    const status = STATUSES[(s * 7 + b * 3 + i) % STATUSES.length];
    return {
      automation_id: `drill.shard${s}.case${n % CASES_PER_SHARD}`,
      status,
      retries: status === 'passed' && i % 4 === 0 ? 1 : 0,
      message: `s${s}-b${b}-i${i}`,
    };
  });
}

/** The run's counts once every batch is in: each case counts with the last result sent for it. */
function expectedCounts(): Record<string, number> {
  const current = new Map<string, SentResult>();
  for (let s = 0; s < SHARDS; s++)
    for (let b = 0; b < BATCHES_PER_SHARD; b++)
      for (const result of batchOf(s, b)) current.set(result.automation_id, result);
  const counts: Record<string, number> = { total: current.size, flaky: 0 };
  for (const status of COUNT_KEYS) counts[status] = 0;
  for (const result of current.values()) {
    counts[result.status]++;
    if (result.status === 'passed' && result.retries > 0) counts.flaky++;
  }
  return counts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('reliability drill R1: the API process crashes while shards submit results', () => {
  let service: RestartableService | undefined;
  let db: pg.Client | undefined;
  // The service's own connections carry this name, so the drill can tell when PostgreSQL has
  // ended the backends of a killed process.
  const applicationName = `drill-r1-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });

  const sessionsOf = async (name: string): Promise<number> =>
    (
      await db!.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [name],
      )
    ).rows[0].n;

  afterAll(async () => {
    await service?.stop();
    await db?.end();
  });

  it('stores every result exactly once and keeps the run’s counts exact across two SIGKILLs', async () => {
    const url = new URL(process.env.DATABASE_URL as string);
    url.searchParams.set('application_name', applicationName);
    service = await RestartableService.start({
      DATABASE_URL: url.toString(),
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    const svc = service;
    const { orgId, key } = await createDrillTenant(svc.baseUrl, SCOPES);
    const project = await expectCall(
      201,
      svc.baseUrl,
      'POST',
      `/internal/v1/organizations/${orgId}/projects`,
      { token: DRILL_ADMIN_TOKEN, body: { name: 'Drill', key: 'DRL' } },
    );
    const run = await expectCall(201, svc.baseUrl, 'POST', '/api/v1/testruns', {
      token: key,
      body: { project_id: project.body.id, name: 'Crash drill' },
    });
    const runId: string = run.body.id;

    const stats = {
      attempts: 0,
      accepted: 0,
      replayed: 0,
      networkErrors: 0,
      serverErrors: 0,
      inUse: 0,
      lostAnswersResent: 0,
    };
    /** Bumped just before each kill; a request of an earlier generation that fails was cut off. */
    let generation = 0;
    const inFlightOf = [0];
    const cutOffByKill = [0];
    let failure: unknown = null;
    /** Ids of the results in every answer the shards accepted (first answers and replays). */
    const answeredIds = new Set<string>();

    /** Posts one batch with `idempotencyKey` until an answer that accepts it. */
    async function submitUntilAccepted(
      body: string,
      idempotencyKey: string,
      what: string,
    ): Promise<JsonResponse> {
      const deadline = Date.now() + BATCH_DEADLINE_MS;
      let backoff = 25;
      for (;;) {
        if (failure) throw new Error(`${what}: stopped, another shard failed`);
        stats.attempts++;
        const gen = generation;
        inFlightOf[gen]++;
        let res: JsonResponse | undefined;
        try {
          res = await call(svc.baseUrl, 'POST', `/api/v1/testruns/${runId}/results`, {
            token: key,
            body,
            headers: { 'Idempotency-Key': idempotencyKey },
            timeoutMs: 15_000,
          });
        } catch {
          // Connection reset by the kill, refused during the restart, or timed out.
          stats.networkErrors++;
          if (gen < generation) cutOffByKill[gen]++;
        } finally {
          inFlightOf[gen]--;
        }
        if (res?.status === 201) {
          stats.accepted++;
          if (res.headers.get('idempotent-replayed') === 'true') stats.replayed++;
          return res;
        }
        if (res && res.status >= 500) stats.serverErrors++;
        else if (res?.status === 409 && res.body?.error === 'idempotency_key_in_use') stats.inUse++;
        else if (res) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
        if (Date.now() > deadline)
          throw new Error(`${what}: not accepted within ${BATCH_DEADLINE_MS} ms`);
        await sleep(backoff * (0.5 + Math.random()));
        backoff = Math.min(backoff * 2, 400);
      }
    }

    let batchesDone = 0;
    async function shard(s: number): Promise<void> {
      // A shard sends its batches in order, as a CI shard reports its tests as they finish.
      for (let b = 0; b < BATCHES_PER_SHARD; b++) {
        const results = batchOf(s, b);
        const body = JSON.stringify({ results });
        const idempotencyKey = `${runId}:shard-${s}:batch-${b}`;
        const what = `shard ${s} batch ${b}`;
        const first = await submitUntilAccepted(body, idempotencyKey, what);
        if (
          first.body.accepted !== RESULTS_PER_BATCH ||
          first.body.data.length !== RESULTS_PER_BATCH
        )
          throw new Error(`${what}: accepted ${first.body.accepted} of ${RESULTS_PER_BATCH}`);
        const ids: string[] = first.body.data.map((r: { id: string }) => r.id);
        for (const id of ids) answeredIds.add(id);
        if (b % LOST_ANSWER_EVERY === LOST_ANSWER_EVERY - 1) {
          // As if this answer had been lost on the way: the same batch again must be a replay
          // of the same answer, not a second copy of the results.
          stats.lostAnswersResent++;
          const again = await submitUntilAccepted(body, idempotencyKey, `${what} (resent)`);
          if (again.headers.get('idempotent-replayed') !== 'true')
            throw new Error(`${what}: resent batch was not a replay`);
          const againIds = again.body.data.map((r: { id: string }) => r.id);
          if (JSON.stringify(againIds) !== JSON.stringify(ids))
            throw new Error(`${what}: the replay names other results than the first answer`);
        }
        batchesDone++;
      }
    }

    const claimsInFlight = async (): Promise<number> =>
      (
        await db!.query(
          `SELECT count(*)::int AS n FROM idempotency_record
            WHERE owner = $1 AND response_status IS NULL`,
          [`org:${orgId}`],
        )
      ).rows[0].n;
    const totalBatches = SHARDS * BATCHES_PER_SHARD;
    const orphanedClaims: number[] = [];
    const started = Date.now();
    const shards = Array.from({ length: SHARDS }, (_, s) =>
      shard(s).catch((error: unknown) => {
        failure ??= error;
        throw error;
      }),
    );
    const allShards = Promise.allSettled(shards);

    try {
      for (let k = 1; k <= KILLS; k++) {
        // Kill at 1/3 and 2/3 of the stream, while some batch is inside its handler (its key
        // claimed, its answer not stored yet) and more than one request is on the wire: with a
        // single one, it could be answered between this check and the kill, and the kill would
        // cut nothing off (seen once on a fast, quiet machine).
        await pollUntil(
          async () =>
            failure !== null ||
            (batchesDone >= (totalBatches * k) / (KILLS + 1) &&
              inFlightOf[generation] > 1 &&
              (await claimsInFlight()) > 0),
          `kill point ${k}`,
          40_000,
          5,
        );
        if (failure) break;
        // The service's sessions carry the drill's name (else the wait below would prove nothing).
        expect(await sessionsOf(applicationName)).toBeGreaterThan(0);
        const before = generation++;
        inFlightOf.push(0);
        cutOffByKill.push(0);
        await svc.kill('SIGKILL');
        // Requests sent before the kill end (most of them reset: the kill was mid-stream).
        await pollUntil(() => inFlightOf[before] === 0, 'the cut-off requests to end', 20_000, 5);
        // PostgreSQL ends the killed process's backends (rolling back what they had not
        // committed); only then is every claim the process left behind visible and final.
        await pollUntil(
          async () => (await sessionsOf(applicationName)) === 0,
          'the killed process’s database sessions to end',
          15_000,
          25,
        );
        // The claims the dead process's requests left without an answer: their retries take
        // them over once nobody holds their lock (src/idempotency/idempotency.store.ts).
        const { rows } = await db!.query(
          `SELECT count(*)::int AS n FROM idempotency_record
            WHERE owner = $1 AND response_status IS NULL`,
          [`org:${orgId}`],
        );
        orphanedClaims.push(rows[0].n);
        await svc.start();
      }
    } catch (error) {
      // Stop the shards at once rather than have them retry until their deadline.
      failure ??= error;
      throw error;
    } finally {
      // Let the shards finish (or fail) before judging, so no request outlives the test.
      await allShards;
    }
    const streamMs = Date.now() - started;
    if (failure) {
      // The service's warnings and errors (not its request log) help explain a failure.
      const notable = svc
        .output()
        .split('\n')
        .filter((line) => line !== '' && !line.includes('"level":30'));
      throw new Error(`${String(failure)}\n${notable.slice(-40).join('\n')}`);
    }

    // The figures of this drill, for its report.
    process.stdout.write(
      `R1: ${SHARDS * BATCHES_PER_SHARD * RESULTS_PER_BATCH} results in ${totalBatches} batches, ` +
        `${svc.kills} kills (requests cut off: ${cutOffByKill.slice(0, KILLS).join(', ')}; ` +
        `orphaned claims: ${orphanedClaims.join(', ')}), ${JSON.stringify(stats)}, ${streamMs} ms\n`,
    );

    expect(svc.kills).toBe(KILLS);
    for (const n of cutOffByKill.slice(0, KILLS)) expect(n).toBeGreaterThan(0);
    // Some batch died inside its handler and was taken over after the restart.
    expect(orphanedClaims.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
    expect(batchesDone).toBe(totalBatches);

    // Exactly the results sent, each once: as many rows as results, one per marker, each on the
    // case it was sent for, and exactly the rows the accepted answers named.
    const sent = new Map<string, string>();
    for (let s = 0; s < SHARDS; s++)
      for (let b = 0; b < BATCHES_PER_SHARD; b++)
        for (const r of batchOf(s, b)) sent.set(r.message, r.automation_id);
    const rows = (
      await db!.query(
        `SELECT r.id, r.message, c.automation_id
           FROM test_result r JOIN test_case c ON c.id = r.test_case_id
          WHERE r.test_run_id = $1`,
        [runId],
      )
    ).rows as Array<{ id: string; message: string; automation_id: string }>;
    const seen = new Map<string, number>();
    for (const row of rows) seen.set(row.message, (seen.get(row.message) ?? 0) + 1);
    const first = (items: string[]) => items.sort().slice(0, 10);
    expect({
      stored: rows.length,
      duplicated: first([...seen].filter(([, n]) => n > 1).map(([marker]) => marker)),
      missing: first([...sent.keys()].filter((marker) => !seen.has(marker))),
      unexpected: first([...seen.keys()].filter((marker) => !sent.has(marker))),
      onAnotherCase: first(
        rows.filter((row) => sent.get(row.message) !== row.automation_id).map((r) => r.message),
      ),
    }).toEqual({
      stored: sent.size,
      duplicated: [],
      missing: [],
      unexpected: [],
      onAnotherCase: [],
    });
    const storedIds = new Set(rows.map((row) => row.id));
    expect(first([...answeredIds].filter((id) => !storedIds.has(id)))).toEqual([]);
    expect(storedIds.size).toBe(answeredIds.size);

    // One case per automation id (a retried batch created none twice), each once in the run.
    const cases = await db!.query(
      `SELECT count(*)::int AS n, count(DISTINCT automation_id)::int AS distinct_ids
         FROM test_case WHERE project_id = $1`,
      [project.body.id],
    );
    expect(cases.rows[0]).toEqual({
      n: SHARDS * CASES_PER_SHARD,
      distinct_ids: SHARDS * CASES_PER_SHARD,
    });

    const final = await expectCall(200, svc.baseUrl, 'GET', `/api/v1/testruns/${runId}`, {
      token: key,
    });
    expect(final.body.counts).toEqual(expectedCounts());
    const history = await expectCall(
      200,
      svc.baseUrl,
      'GET',
      `/api/v1/testruns/${runId}/results?include_history=true&limit=1`,
      { token: key },
    );
    expect(history.body.pagination.total).toBe(sent.size);
  }, 150_000);
});
