// Drill R2, "no event lost": Redis crashes (restarted empty), the receiver stalls past the send
// time limit, workers are woken twice for one attempt (as Bull does when it re-runs a job it
// thinks stalled) and a worker is SIGKILLed while webhooks of a few hundred committed changes
// are being delivered to loopback receivers.
//
// What "sent twice within one attempt" means here, from src/webhooks/deliveries.service.ts:
// an attempt of a delivery is claimed by one UPDATE that sets `lease_until` (send time limit
// + 5 s) only where no unexpired lease is held; the holder sends once and records the attempt
// (`attempts` + 1 and one `attempt_log` entry numbered with it) in the same statement that
// drops the lease. So, observably:
//   1. a receiver never has two requests of one delivery (`X-Service-Delivery`) in flight at
//      once, unless the sender gave up on the first: a receiver that holds a request past the
//      time limit (here, its process stalled) gets the retry while it still holds the first,
//      whose attempt is logged as timed out;
//   2. the attempt log of every delivery is numbered 1..attempts, one entry per attempt;
//   3. a delivery reaches the receiver at most as many times as it has recorded attempts, plus
//      one for each killed worker that held its lease: a worker killed after sending but
//      before recording leaves an unrecorded attempt, which is sent again once the lease
//      lapses (at-least-once delivery, which the delivery id lets receivers deduplicate).
//      Such an extra request must have arrived before the kill.
import Bull from 'bull';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createTenant } from '../factories/organizations.js';
import { ADMIN_TOKEN, withKey } from '../support/app.js';
import { DeliveryReceiver, type Receipt } from '../support/delivery-receiver.js';
import { PrivateRedis } from '../support/redis-server.js';
import { ServiceFleet, type RunningService } from '../support/services.js';

const BUILDS = 300;
/** Builds registered at once, as several CI pipelines would. */
const CONCURRENCY = 8;
const WEBHOOK_TIMEOUT_MS = 1_000;
/** The delivery lease (deliveries.service.ts: send time limit + 5 s). */
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 5_000;
/** How long the receiver's process stalls once (longer than the time limit). */
const STALL_MS = 1_500;
/** A receipt's timestamp and the test's record of a kill come from different event-loop turns. */
const CLOCK_SLACK_MS = 1_000;
const CONVERGE_MS = 60_000;
const QUEUE = 'webhook-deliveries';

interface DeliveryRow {
  id: string;
  event_id: string;
  subscription_id: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  attempt_log: Array<{
    attempt: number;
    at: string;
    response_status: number | null;
    error: string | null;
  }>;
}

/** Polls `done` until it holds or `ms` pass; `describe` says what was missing. */
async function until(
  done: () => Promise<boolean> | boolean,
  ms: number,
  describe: () => Promise<string> | string,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms: ${await describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('R2: no webhook event is lost when Redis and a worker crash mid-delivery', () => {
  let redis: PrivateRedis;
  let fleet: ServiceFleet;
  let db: pg.Client;
  const receiver = new DeliveryReceiver();
  const gone = new DeliveryReceiver();
  let api: RunningService;
  let key: string;
  let orgId: string;
  let subscriptionId: string;
  let goneSubscriptionId: string;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    fleet = new ServiceFleet({
      REDIS_URL: redis.url,
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
      // Retries after ~200 ms instead of 10 min, so a failed first attempt is retried in the drill.
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
      // The sweeper is what recovers the jobs an empty Redis lost: run it often.
      WEBHOOK_SWEEP_INTERVAL_MS: '250',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    const url = await receiver.start();
    const goneUrl = await gone.start();
    gone.answer = () => ({ status: 410 });
    [api] = await Promise.all([fleet.start('api'), db.connect()]);

    const tenant = await createTenant(api, ['builds:create', 'webhooks:manage'], {
      plan: 'enterprise',
      monthly_call_limit: 100_000,
    });
    key = tenant.key;
    orgId = tenant.org.id;
    const subscribe = async (target: string, events: string[]) => {
      const res = await api.http
        .post('/api/v1/webhooks')
        .set(withKey(key))
        .send({ url: target, events });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    subscriptionId = await subscribe(url, ['*']);
    goneSubscriptionId = await subscribe(goneUrl, ['build.created.v1']);
  }, 60_000);

  afterAll(async () => {
    await fleet?.stopAll();
    await redis?.kill();
    await Promise.all([receiver.stop(), gone.stop(), db?.end().catch(() => undefined)]);
  });

  it('delivers every event of every committed change, sends no attempt twice, and stops retrying a 410', async () => {
    const drillStarted = Date.now();
    // Every 10th build's first request is refused (503), so attempts 2 are in the drill too.
    receiver.answer = (receipt, nth) => {
      const n = Number(String(receipt.data.name).replace('drill-', ''));
      return { status: nth === 1 && n % 10 === 0 ? 503 : 200, holdMs: 30 };
    };
    const workers = await Promise.all([fleet.start('worker'), fleet.start('worker')]);

    // The committed changes: builds registered through the API, several at a time.
    const accepted = new Map<string, string>(); // build id -> name
    const refused: string[] = [];
    let next = 0;
    const pipeline = async () => {
      while (next < BUILDS) {
        const name = `drill-${next++}`;
        const res = await api.http.post('/api/v1/builds').set(withKey(key)).send({ name });
        if (res.status === 202) accepted.set(res.body.id as string, name);
        else refused.push(`${name}: ${res.status} ${res.text}`);
      }
    };

    // The crashes, at fixed points of the load, each while deliveries are in flight.
    const kills: number[] = [];
    const restarts: number[] = [];
    const stalls: number[] = [];
    const crashes = async () => {
      const inFlight = (at: number) =>
        until(
          () => accepted.size >= at && receiver.inFlight > 0,
          20_000,
          () => `${accepted.size} builds, ${receiver.inFlight} in flight`,
        );
      await inFlight(BUILDS / 3);
      await redis.restart();
      restarts.push(Date.now());
      // The receiver (this process) stalls while it holds requests: their senders give up.
      await inFlight(BUILDS / 2);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, STALL_MS);
      stalls.push(Date.now());
      await inFlight((2 * BUILDS) / 3);
      const victim = workers.shift() as RunningService;
      await fleet.kill(victim);
      kills.push(Date.now());
      workers.push(await fleet.start('worker'));
    };

    // Duplicate wake-ups: each due attempt seen here gets a second job (its own id), which a
    // worker runs alongside the first; only the attempt's lease keeps them from both sending.
    const wakeUps = new Bull(QUEUE, redis.url, { prefix: `${process.env.REDIS_PREFIX}:bull` });
    let producing = true;
    let duplicated = 0;
    const duplicate = async () => {
      while (producing) {
        const { rows } = await db.query<{ id: string; attempts: number }>(
          `SELECT id, attempts FROM webhook_delivery
            WHERE organization_id = $1 AND status = 'pending' AND lease_until IS NULL`,
          [orgId],
        );
        const added = await Promise.allSettled(
          rows.map((d) =>
            wakeUps.add(
              { deliveryId: d.id, attempt: d.attempts + 1 },
              {
                jobId: `${d.id}:${d.attempts + 1}:again`,
                removeOnComplete: true,
                removeOnFail: true,
              },
            ),
          ),
        );
        duplicated += added.filter((a) => a.status === 'fulfilled').length;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    const duplicating = duplicate();
    await Promise.all([...Array.from({ length: CONCURRENCY }, pipeline), crashes()]);
    producing = false;
    await duplicating;
    await wakeUps.close();
    expect(refused).toEqual([]);
    expect(accepted.size).toBe(BUILDS);
    const produced = Date.now();

    // Converged: every event relayed, each has a succeeded delivery to the receiver, and the
    // 410 subscription's deliveries are all finished.
    const state = async () => {
      const { rows } = await db.query<{
        events: number;
        unrelayed: number;
        succeeded: number;
        gone_open: number;
      }>(
        `SELECT (SELECT count(*)::int FROM domain_event WHERE organization_id = $1) AS events,
                (SELECT count(*)::int FROM domain_event
                  WHERE organization_id = $1 AND relayed_at IS NULL) AS unrelayed,
                (SELECT count(DISTINCT event_id)::int FROM webhook_delivery
                  WHERE subscription_id = $2 AND status = 'succeeded') AS succeeded,
                (SELECT count(*)::int FROM webhook_delivery
                  WHERE subscription_id = $3 AND status = 'pending') AS gone_open`,
        [orgId, subscriptionId, goneSubscriptionId],
      );
      return rows[0];
    };
    // What a delivery that never finishes looks like, in the database and in Bull's Redis keys
    // (the job id is `<delivery id>:<attempt>`): printed if the drill times out.
    const stuck = async () => {
      const { rows: open } = await db.query<{ id: string; attempts: number }>(
        `SELECT id, subscription_id, attempts, next_attempt_at, lease_until, attempt_log,
                created_at, now() AS now
           FROM webhook_delivery WHERE organization_id = $1 AND status = 'pending' LIMIT 5`,
        [orgId],
      );
      const probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      try {
        const jobs = await Promise.all(
          open.map(async (d) => {
            const key = `${process.env.REDIS_PREFIX}:bull:${QUEUE}:${d.id}:${d.attempts + 1}`;
            return { key, hash: await probe.hgetall(key), lock: await probe.get(`${key}:lock`) };
          }),
        );
        const receipts = open.map((d) => [...receiver.of(d.id), ...gone.of(d.id)]);
        return JSON.stringify(
          { state: await state(), open, jobs, receipts, restarts, stalls, kills },
          null,
          1,
        );
      } finally {
        probe.disconnect();
      }
    };
    await until(
      async () => {
        const s = await state();
        return s.events >= BUILDS && s.unrelayed === 0 && s.succeeded === s.events && !s.gone_open;
      },
      CONVERGE_MS,
      () => stuck(),
    );
    // Nothing left for the workers (no waiting, active or delayed job, in the Redis the
    // service uses now), so no late request can still arrive after the checks below.
    const queue = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      const prefix = `${process.env.REDIS_PREFIX}:bull:${QUEUE}`;
      const pending = async () => {
        const [wait, active, delayed] = await Promise.all([
          queue.llen(`${prefix}:wait`),
          queue.llen(`${prefix}:active`),
          queue.zcard(`${prefix}:delayed`),
        ]);
        return { wait, active, delayed };
      };
      await until(
        async () => Object.values(await pending()).every((n) => n === 0),
        20_000,
        async () => JSON.stringify(await pending()),
      );
    } finally {
      queue.disconnect();
    }
    const converged = Date.now();

    // Every committed change has exactly one event, and nothing else has one.
    const { rows: events } = await db.query<{ id: string; type: string; build_id: string }>(
      `SELECT id, type, data->>'id' AS build_id FROM domain_event WHERE organization_id = $1`,
      [orgId],
    );
    expect(events.every((e) => e.type === 'build.created.v1')).toBe(true);
    expect(events.map((e) => e.build_id).sort()).toEqual([...accepted.keys()].sort());

    const { rows: deliveries } = await db.query<DeliveryRow>(
      `SELECT id, event_id, subscription_id, status, attempts, next_attempt_at, attempt_log
         FROM webhook_delivery WHERE organization_id = $1`,
      [orgId],
    );
    const mine = deliveries.filter((d) => d.subscription_id === subscriptionId);
    const goneOnes = deliveries.filter((d) => d.subscription_id === goneSubscriptionId);

    // One delivery per event and subscription, each delivered (or refused) as recorded.
    expect(mine.map((d) => d.event_id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(mine.filter((d) => d.status !== 'succeeded')).toEqual([]);
    expect(new Set(receiver.receipts.map((r) => r.eventId))).toEqual(
      new Set(events.map((e) => e.id)),
    );
    expect(new Set(receiver.deliveryIds)).toEqual(new Set(mine.map((d) => d.id)));
    const retried = mine.filter((d) => d.attempts > 1).length;

    // No attempt sent twice (see the top of this file): each request of a delivery that a later
    // one overlapped is one its sender gave up on, so the delivery logs at least as many
    // timed-out attempts sent before the last of them arrived.
    const byId = new Map([...mine, ...goneOnes].map((d) => [d.id, d]));
    const timedOut = (d: DeliveryRow | undefined, sentBy = Infinity) =>
      (d?.attempt_log ?? []).filter(
        (e) => e.error?.startsWith('timed out') && Date.parse(e.at) <= sentBy + CLOCK_SLACK_MS,
      );
    const overlapped = new Map<string, Set<Receipt>>();
    for (const { deliveryId, first } of [...receiver.overlaps, ...gone.overlaps]) {
      overlapped.set(deliveryId, (overlapped.get(deliveryId) ?? new Set()).add(first));
    }
    const sentTwice = [...overlapped].filter(([deliveryId, firsts]) => {
      const lastArrived = Math.max(...[...firsts].map((r) => r.startedAt));
      return timedOut(byId.get(deliveryId), lastArrived).length < firsts.size;
    });
    expect(sentTwice).toEqual([]);
    // The stall made senders give up, so the exception above was exercised.
    const timedOutAttempts = deliveries.reduce((n, d) => n + timedOut(d).length, 0);
    expect(timedOutAttempts).toBeGreaterThan(0);
    const killedAt = kills[0];
    const excess: string[] = [];
    for (const [log, d] of [
      ...mine.map((d) => [receiver, d] as const),
      ...goneOnes.map((d) => [gone, d] as const),
    ]) {
      expect(d.attempt_log.map((e) => e.attempt)).toEqual(
        Array.from({ length: d.attempts }, (_, i) => i + 1),
      );
      const receipts: Receipt[] = log.of(d.id);
      const extra = receipts.length - d.attempts;
      if (extra <= 0) continue;
      excess.push(d.id);
      // At most one unrecorded send (one killed lease holder), which reached the receiver
      // before the kill; its repeat came after the lease lapsed.
      expect(extra).toBeLessThanOrEqual(kills.length);
      expect(receipts[0].startedAt).toBeLessThanOrEqual(killedAt + CLOCK_SLACK_MS);
      expect(receipts[receipts.length - 1].startedAt - receipts[0].startedAt).toBeGreaterThan(
        LEASE_MS - WEBHOOK_TIMEOUT_MS - CLOCK_SLACK_MS,
      );
    }

    // Every refused first request was retried as attempt 2, unless the worker that sent it
    // was killed before recording it (then the resend is attempt 1).
    expect(retried).toBeGreaterThanOrEqual(BUILDS / 10 - excess.length);

    // 410 Gone ends its delivery after that one attempt and switches the subscription off:
    // events relayed after that get no delivery for it, and deliveries already made are
    // failed unsent (`subscription inactive`); nothing more is scheduled for any.
    const eventIds = new Set(events.map((e) => e.id));
    expect(goneOnes.every((d) => eventIds.has(d.event_id))).toBe(true);
    expect(goneOnes.length).toBeGreaterThan(0);
    expect(goneOnes.length).toBeLessThan(events.length);
    // An attempt the receiver answered too late on a loaded machine (past the 1 s limit) is
    // retried like any other failure, so a 410 may come at attempt 2; nothing follows it.
    for (const d of goneOnes) {
      expect(d).toMatchObject({ status: 'failed', next_attempt_at: null });
      const last = d.attempt_log[d.attempt_log.length - 1];
      if (last.response_status === null) expect(last.error).toBe('subscription inactive');
      else expect(last.response_status).toBe(410);
      for (const before of d.attempt_log.slice(0, -1)) {
        expect(before).toMatchObject({ response_status: null });
        expect(before.error).not.toBe('subscription inactive');
      }
    }
    expect(goneOnes.some((d) => d.attempt_log[0].response_status === 410)).toBe(true);

    const figures = {
      builds: accepted.size,
      events: events.length,
      deliveries: deliveries.length,
      receipts: receiver.receipts.length,
      goneReceipts: gone.receipts.length,
      retriedDeliveries: retried,
      resentAfterKill: excess.length,
      duplicateWakeUps: duplicated,
      redisRestarts: restarts.length,
      receiverStalls: stalls.length,
      timedOutAttempts,
      overlapsAfterTimeout: receiver.overlaps.length + gone.overlaps.length,
      workerKills: kills.length,
      produceSeconds: (produced - drillStarted) / 1000,
      convergeSeconds: (converged - produced) / 1000,
    };
    process.stdout.write(`R2 figures: ${JSON.stringify(figures)}\n`);
  }, 120_000);

  // R2: a receiver answering 410 stops its subscription (it shows `active: false`).
  it('a receiver answering 410 Gone stops its subscription', async () => {
    const res = await api.http.get('/api/v1/webhooks').set(withKey(key));
    expect(res.status).toBe(200);
    const subscription = (res.body.data as Array<{ id: string; active: boolean }>).find(
      (s) => s.id === goneSubscriptionId,
    );
    expect(subscription).toMatchObject({ active: false });
  }, 10_000);
});
