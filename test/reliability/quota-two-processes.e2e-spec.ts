import pg from 'pg';
import {
  call,
  createDrillKey,
  createDrillTenant,
  DRILL_ADMIN_TOKEN,
  expectCall,
  RestartableService,
  type JsonResponse,
} from '../support/service-control.js';

/*
 * Drill R3, "quotas exact": two API processes on one database take 200 concurrent calls of an
 * organization with exactly 50 calls left this period. Exactly 50 may pass, whichever process
 * takes them; the other 150 are refused with the monthly 429; the stored count ends at the
 * limit.
 */

const CALLS = 200;
const LEFT = 50;

describe('reliability drill R3: the monthly quota across two API processes', () => {
  const processes: RestartableService[] = [];
  let db: pg.Client | undefined;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    // A per-minute limit far above the burst, so only the monthly quota refuses calls.
    const env = { RATE_LIMIT_PER_MINUTE: '100000' };
    const started = await Promise.allSettled([
      RestartableService.start(env),
      RestartableService.start(env),
    ]);
    // Keep whichever started, so afterAll ends it even when the other did not.
    for (const one of started) if (one.status === 'fulfilled') processes.push(one.value);
    for (const one of started) if (one.status === 'rejected') throw one.reason;
  }, 45_000);

  afterAll(async () => {
    await Promise.all(processes.map((service) => service.stop()));
    await db?.end();
  });

  const usageOf = async (orgId: string): Promise<number> =>
    (
      await db!.query(
        'SELECT coalesce(sum(calls), 0)::int AS calls FROM organization_usage WHERE organization_id = $1',
        [orgId],
      )
    ).rows[0].calls;

  /**
   * A Pro organization that has made 7 calls this period (over both processes), whose custom
   * limit is then set (internal PATCH) to what it has used plus `LEFT`.
   */
  async function organizationWithCallsLeft(): Promise<{ orgId: string; limit: number }> {
    const [a] = processes;
    const { orgId, key } = await createDrillTenant(a.baseUrl, ['builds:read'], {
      plan: 'pro',
    });
    // Calls already made this period, on both processes.
    for (let i = 0; i < 7; i++)
      await expectCall(200, processes[i % 2].baseUrl, 'GET', '/api/v1/organizations', {
        token: key,
      });
    const used = await usageOf(orgId);
    expect(used).toBe(7);
    const limit = used + LEFT;
    await expectCall(200, a.baseUrl, 'PATCH', `/internal/v1/organizations/${orgId}`, {
      token: DRILL_ADMIN_TOKEN,
      body: { monthly_call_limit: limit },
    });
    return { orgId, limit };
  }

  /** `CALLS` calls at once, alternating between the two processes. */
  async function burst(key: string): Promise<Array<JsonResponse & { process: number }>> {
    return Promise.all(
      Array.from({ length: CALLS }, async (_, i) => ({
        process: i % 2,
        ...(await call(processes[i % 2].baseUrl, 'GET', '/api/v1/organizations', {
          token: key,
          timeoutMs: 30_000,
        })),
      })),
    );
  }

  async function expectExactlyLeftAdmitted(
    orgId: string,
    limit: number,
    responses: Array<JsonResponse & { process: number }>,
    label: string,
  ): Promise<void> {
    const admitted = responses.filter((res) => res.status === 200);
    const refused = responses.filter((res) => res.status === 429);
    const perProcess = [0, 1].map((p) => admitted.filter((res) => res.process === p).length);
    process.stdout.write(
      `R3 (${label}): ${CALLS} calls, ${admitted.length} admitted (${perProcess.join(' + ')} ` +
        `by process A + B), ${refused.length} refused, limit ${limit}\n`,
    );
    expect({ admitted: admitted.length, refused: refused.length }).toEqual({
      admitted: LEFT,
      refused: CALLS - LEFT,
    });
    for (const res of refused) {
      expect(res.body).toEqual({
        error: 'rate_limit_exceeded',
        message: expect.any(String),
        details: { limit, reset_at: expect.any(String), window: 'month' },
      });
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    // Each admitted call was counted on its own: their "remaining" are 49, 48, … 0, once each.
    const remaining = admitted
      .map((res) => Number(res.headers.get('x-ratelimit-remaining')))
      .sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: LEFT }, (_, i) => i));

    expect(await usageOf(orgId)).toBe(limit);
    const org = await expectCall(
      200,
      processes[1].baseUrl,
      'GET',
      `/internal/v1/organizations/${orgId}`,
      {
        token: DRILL_ADMIN_TOKEN,
      },
    );
    expect(org.body).toMatchObject({ monthly_call_limit: limit, calls_this_period: limit });
  }

  it('admits exactly the 50 calls left and refuses 150 with the monthly 429 when neither process knows the key yet', async () => {
    const { orgId, limit } = await organizationWithCallsLeft();
    // A key neither process has seen: every call takes the separate counting statement.
    const fresh = await createDrillKey(processes[0].baseUrl, orgId, ['builds:read']);
    await expectExactlyLeftAdmitted(orgId, limit, await burst(fresh), 'fresh key');
  }, 30_000);

  it('admits exactly the 50 calls left and refuses 150 with the monthly 429 when both processes know the key', async () => {
    const { orgId, limit } = await organizationWithCallsLeft();
    const known = await createDrillKey(processes[0].baseUrl, orgId, ['builds:read']);
    // One call on each process teaches both the key (authenticated and counted in one
    // statement from then on); the limit follows so that exactly LEFT calls remain.
    for (const service of processes)
      await expectCall(200, service.baseUrl, 'GET', '/api/v1/organizations', { token: known });
    await expectCall(200, processes[0].baseUrl, 'PATCH', `/internal/v1/organizations/${orgId}`, {
      token: DRILL_ADMIN_TOKEN,
      body: { monthly_call_limit: limit + 2 },
    });
    await expectExactlyLeftAdmitted(orgId, limit + 2, await burst(known), 'known key');
  }, 30_000);
});
