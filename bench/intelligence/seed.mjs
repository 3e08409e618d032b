// The data set of the results-intelligence benchmark, generated deterministically (a seeded
// PRNG: the same options give the same statuses, messages and ids) and bulk-loaded with COPY,
// one transaction per run, with every trigger of the schema enabled.
//
// Shape (defaults): RUNS runs of CASES cases each, one build per run.
//   - Runs are an hour apart, all `completed` but the last one (`submitted`). Most are named
//     "nightly" on branch `main`; a few are on `feature/x` and a few are named "smoke", so
//     the last run's default baseline is neither the run just before it nor the one before
//     that (it is the latest "nightly" on `main`).
//   - RETIRED cases run in every run but the last (missing tests), NEW cases only in the last
//     one (new tests), so the project holds CASES + NEW test cases.
//   - ~1 % of the results fail: 300 flaky cases that flip between passed and failed (and
//     sometimes pass on a retry), 60 cases broken for a stretch of runs, one-off failures of
//     stable cases, a few blocked ones; most failures share 5 signatures, a long tail has its
//     own. The last run adds a regression (25 cases newly failing with one signature) and 10
//     fixes. Some cases pass after a retry (flaky), 150 are always skipped.
// Runs take their positions (1, 2, 3…) as the service numbers them, and the flaky list's
// summary (`case_outcomes`), which the service keeps as runs are submitted, is filled at the end
// by the statement `flakiness.backfillCaseOutcomes`, and so are the release's slots
// (`release_slot`, which the service keeps as results are written) by `releaseSlots.backfill`.
// Run and result ids are UUIDv7 of their rows' times, as the service makes them (a result's
// counter its place in the run, the tail from the PRNG): `test_result` and `test_run_case` are
// partitioned by month of run id, so v4 ids would all land in the default partition. Case and
// build ids stay random (nothing is partitioned by them, and `sampleCases` needs no time).
// The runs end at `options.endAt` (ms, default now; not part of `seedOptions`, so a seed's
// marker does not change with the time), which lets a bench spread projects over months.
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import copyStreams from 'pg-copy-streams';
// The statement that fills the flaky list's summary from a project's runs (needs `npm run build`).
import { BACKFILL as BACKFILL_CASE_OUTCOMES } from '../../dist/flakiness/case-outcomes.repository.js';
import { BACKFILL as BACKFILL_RELEASE_SLOTS } from '../../dist/results/release-slots.repository.js';

// 2: run and result ids are UUIDv7 (a seed of version 1 lies in the default partition).
export const SEED_VERSION = 2;

export function seedOptions(env = process.env) {
  const runs = Number(env.BENCH_RUNS ?? 100);
  const cases = Number(env.BENCH_CASES ?? 20_000);
  return {
    version: SEED_VERSION,
    seed: Number(env.BENCH_SEED ?? 16),
    runs,
    cases,
    retired: Math.min(50, Math.floor(cases / 400)),
    added: Math.min(50, Math.floor(cases / 400)),
    flaky: Math.min(300, Math.floor(cases * 0.015)),
    retryFlaky: Math.min(100, Math.floor(cases * 0.005)),
    broken: Math.min(60, Math.floor(cases * 0.003)),
    skipped: Math.min(150, Math.floor(cases * 0.0075)),
    regression: Math.min(25, Math.floor(cases * 0.00125)),
    fixedLast: Math.min(10, Math.floor(cases * 0.0005)),
    oneOffPerRun: Math.round(cases * 0.003),
    blockedPerRun: Math.max(1, Math.round(cases * 0.00025)),
    retriedPassPerRun: Math.round(cases * 0.001),
  };
}

/** The description that marks a project as completely seeded with `options`. */
export const seedMarker = (options) => `intelligence bench seed ${JSON.stringify(options)}`;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** sfc32: a small, fast 32-bit PRNG; `rand()` is uniform in [0, 1). */
function prng(...seeds) {
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = 1;
  for (const s of seeds) {
    a ^= s;
    b ^= Math.imul(s, 0x85ebca6b);
    c ^= Math.imul(s, 0xc2b2ae35);
  }
  const next = () => {
    a |= 0; b |= 0; c |= 0; d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 15; i++) next();
  const rand = () => next() / 4294967296;
  const int = (n) => Math.floor(rand() * n);
  const hex = (chars) => {
    let s = '';
    while (s.length < chars) s += next().toString(16).padStart(8, '0');
    return s.slice(0, chars);
  };
  const uuid = () => {
    const h = hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[next() & 3]}${h.slice(17, 20)}-${h.slice(20)}`;
  };
  const shuffle = (array) => {
    for (let i = array.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [array[i], array[j]] = [array[j], array[i]];
    }
    return array;
  };
  return { rand, int, hex, uuid, shuffle };
}

/**
 * A UUIDv7 (RFC 9562) of millisecond `ms`, laid out as the service's generator lays it out
 * (`src/common/uuid7.ts`): 48 bits of time, version 7, a 26-bit `counter` (12 bits, the
 * variant, 14 bits), then the last 48 bits of `random` (a uuid the PRNG made).
 */
export function uuid7Of(ms, counter, random) {
  const time = ms.toString(16).padStart(12, '0');
  const high = (0x7000 | ((counter >>> 14) & 0xfff)).toString(16);
  const low = (0x8000 | (counter & 0x3fff)).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-${high}-${low}-${random.slice(24)}`;
}

const signatureOf = (...parts) => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);

// ---------------------------------------------------------------------------------------------
// Cases and failures

const MODULES = ['account', 'cart', 'catalog', 'checkout', 'search', 'payments', 'shipping', 'orders', 'reviews', 'admin'];
const CLASSES = ['Api', 'Ui', 'Service', 'Repository', 'Flow', 'Validation', 'Permission', 'Event', 'Report', 'Cache'];
const VERBS = ['creates', 'updates', 'rejects', 'lists', 'deletes', 'applies', 'retries', 'exports', 'filters', 'merges'];
const NOUNS = ['an order', 'a discount', 'the basket', 'a refund', 'an address', 'a voucher', 'the invoice', 'a wishlist', 'a session', 'the stock'];

function caseOf(index) {
  const module = MODULES[index % MODULES.length];
  const cls = `${CLASSES[Math.floor(index / MODULES.length) % CLASSES.length]}${String(Math.floor(index / 100)).padStart(3, '0')}`;
  const method = `test${String(index).padStart(5, '0')}`;
  return {
    module,
    cls,
    method,
    automationId: `com.acme.shop.${module}.${cls}Test#${method}`,
    title: `${cls} ${VERBS[index % 10]} ${NOUNS[Math.floor(index / 10) % 10]} (${index})`,
    section: `Shop / ${module[0].toUpperCase()}${module.slice(1)} / ${cls}`,
  };
}

/** The 5 causes behind most failures: values that vary between runs go in `message(rand)`. */
const COMMON = [
  {
    type: 'java.lang.AssertionError',
    template: 'expected status <N> but was <N> at OrderApiTest.java:N',
    message: (r) => `expected status <200> but was <${[500, 502, 503][r.int(3)]}> at OrderApiTest.java:${40 + r.int(200)}`,
  },
  {
    type: 'org.openqa.selenium.TimeoutException',
    template: 'Expected condition failed: waiting for visibility of element located by By.cssSelector: #checkout-button (tried for N second(s) with N milliseconds interval)',
    message: (r) => `Expected condition failed: waiting for visibility of element located by By.cssSelector: #checkout-button (tried for ${10 + r.int(50)} second(s) with 500 milliseconds interval)`,
  },
  {
    type: 'java.lang.NullPointerException',
    template: 'Cannot invoke "com.acme.shop.cart.Cart.total()" because "cart" is null',
    message: () => 'Cannot invoke "com.acme.shop.cart.Cart.total()" because "cart" is null',
  },
  {
    type: 'java.net.ConnectException',
    template: 'Connection refused: localhost/N.N.N.N:N',
    message: (r) => `Connection refused: localhost/127.0.0.1:${5432 + r.int(3)}`,
  },
  {
    type: 'org.openqa.selenium.StaleElementReferenceException',
    template: 'stale element reference: element is not attached to the page document (Session info: chrome=N.N.N.N)',
    message: (r) => `stale element reference: element is not attached to the page document (Session info: chrome=${118 + r.int(4)}.0.${5993 + r.int(100)}.${r.int(200)})`,
  },
].map((cause) => ({ ...cause, signature: signatureOf(cause.type, cause.template) }));

function stackTrace(c, type, message, r) {
  const lines = [`${type}: ${message}`, `\tat com.acme.shop.${c.module}.${c.cls}Test.${c.method}(${c.cls}Test.java:${20 + r.int(300)})`];
  const frames = 6 + r.int(10);
  for (let i = 0; i < frames; i++) {
    lines.push(`\tat com.acme.shop.${MODULES[r.int(MODULES.length)]}.${CLASSES[r.int(CLASSES.length)]}Support.step${r.int(40)}(${CLASSES[r.int(CLASSES.length)]}Support.java:${r.int(900)})`);
  }
  lines.push('\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)');
  lines.push('\tat org.junit.platform.engine.support.hierarchical.ThrowableCollector.execute(ThrowableCollector.java:73)');
  return lines.join('\n');
}

/** A failure of `c`: a common cause (index into COMMON) or, with `cause` null, its own. */
function failure(c, index, cause, r) {
  if (cause !== null) {
    const common = COMMON[cause];
    const message = common.message(r);
    return { type: common.type, message, signature: common.signature, stack: stackTrace(c, common.type, message, r) };
  }
  const type = 'org.opentest4j.AssertionFailedError';
  const variant = r.int(3); // a case's own failure, in one of three wordings
  const message = `${c.cls} ${VERBS[index % 10]} ${NOUNS[(index + variant) % 10]}: expected state ACTIVE_${variant} for case ${index} but was PENDING`;
  return { type, message, signature: signatureOf(type, c.automationId, String(variant)), stack: stackTrace(c, type, message, r) };
}

// ---------------------------------------------------------------------------------------------
// The plan: which case does what in which run

export function plan(options) {
  const r = prng(options.seed, 0);
  const { runs, cases, retired, added } = options;
  const caseIds = Array.from({ length: cases + added }, () => r.uuid());
  // Kinds go to cases spread over the automation ids: a shuffled list of the stable cases.
  const pool = r.shuffle(Array.from({ length: cases - retired }, (_, i) => retired + i));
  let next = 0;
  const take = (n) => pool.slice(next, (next += n));
  const kind = new Uint8Array(cases + added); // 0 stable
  const FLAKY = 1, RETRY_FLAKY = 2, BROKEN = 3, SKIPPED = 4, REGRESSION = 5, FIXED_LAST = 6;
  const flakyCases = take(options.flaky);
  for (const i of flakyCases) kind[i] = FLAKY;
  for (const i of take(options.retryFlaky)) kind[i] = RETRY_FLAKY;
  const broken = new Map(); // case → [first, last] run it fails in, and its cause
  for (const i of take(options.broken)) {
    kind[i] = BROKEN;
    const first = r.int(runs - 1);
    const last = Math.min(runs - 1, first + 5 + r.int(runs));
    broken.set(i, { first, last, cause: r.rand() < 0.5 ? 0 : 2 });
  }
  for (const i of take(options.skipped)) kind[i] = SKIPPED;
  for (const i of take(options.regression)) kind[i] = REGRESSION;
  for (const i of take(options.fixedLast)) kind[i] = FIXED_LAST;
  const stable = pool.slice(next);

  // Runs: the last is on main and named nightly; a few others are not.
  const runPlan = Array.from({ length: runs }, (_, n) => {
    const last = n === runs - 1;
    const feature = !last && n > 0 && (n % 22 === 0 || n === runs - 2);
    const smoke = !last && !feature && (n % 30 === 15 || n === runs - 3);
    return {
      n,
      id: r.uuid(),
      buildId: r.uuid(),
      commitSha: r.hex(40),
      branch: feature ? 'feature/x' : 'main',
      name: smoke ? 'smoke' : 'nightly',
      status: last ? 'submitted' : 'completed',
    };
  });
  return { caseIds, kind, broken, stable, flakyCases, runPlan, KINDS: { FLAKY, RETRY_FLAKY, BROKEN, SKIPPED, REGRESSION, FIXED_LAST } };
}

/** Each case's result in run `n`: {status, retries, flaky, failure} by case index. */
function resultsOfRun(options, seedPlan, n) {
  const r = prng(options.seed, 1000 + n);
  const { runs, cases, retired, added } = options;
  const { kind, broken, stable, KINDS } = seedPlan;
  const last = n === runs - 1;
  const first = last ? retired : 0;
  const end = last ? cases + added : cases;
  const out = [];
  // Per run: one-off failures (60 % of them a common cause), blocked ones, passes on a retry.
  const oneOff = new Map();
  for (let k = 0; k < options.oneOffPerRun; k++) oneOff.set(stable[r.int(stable.length)], r.rand() < 0.6 ? r.int(5) : null);
  const blocked = new Set();
  for (let k = 0; k < options.blockedPerRun; k++) blocked.add(stable[r.int(stable.length)]);
  const retried = new Set();
  for (let k = 0; k < options.retriedPassPerRun; k++) retried.add(stable[r.int(stable.length)]);

  const passed = { status: 'passed', retries: 0, flaky: false, failure: null };
  for (let i = first; i < end; i++) {
    const c = caseOf(i);
    let result = passed;
    const fail = (cause) => ({ status: 'failed', retries: r.int(3), flaky: false, failure: failure(c, i, cause, r) });
    const retryPass = () => ({ status: 'passed', retries: 1 + r.int(2), flaky: true, failure: null });
    switch (kind[i]) {
      case KINDS.FLAKY: {
        const p = r.rand();
        if (p < 0.25) result = fail([1, 4, 3][i % 3]);
        else if (p < 0.35) result = retryPass();
        break;
      }
      case KINDS.RETRY_FLAKY:
        if (r.rand() < 0.15) result = retryPass();
        break;
      case KINDS.BROKEN: {
        const b = broken.get(i);
        if (n >= b.first && n <= b.last) result = fail(b.cause);
        break;
      }
      case KINDS.SKIPPED:
        result = { status: 'skipped', retries: 0, flaky: false, failure: null, message: 'Disabled: quarantined by hand' };
        break;
      case KINDS.REGRESSION:
        if (last) result = fail(0);
        break;
      case KINDS.FIXED_LAST:
        if (n >= runs - 10 && !last) result = fail(2);
        break;
      default:
        if (i >= cases) {
          if (i - cases < 2) result = fail(null); // a new test that fails at once
        } else if (oneOff.has(i)) result = fail(oneOff.get(i));
        else if (blocked.has(i)) {
          const cause = COMMON[3];
          const message = cause.message(r);
          result = { status: 'blocked', retries: 0, flaky: false, failure: { type: cause.type, message, signature: cause.signature, stack: null } };
        } else if (retried.has(i)) result = retryPass();
    }
    out.push({ index: i, ...result, duration: 5 + Math.floor(r.rand() * r.rand() * 8000) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// COPY

const escape = (value) =>
  value === null || value === undefined
    ? '\\N'
    : String(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

async function copy(client, sql, pieces) {
  await pipeline(Readable.from(pieces), client.query(copyStreams.from(sql)));
}

const iso = (ms) => new Date(ms).toISOString();

/**
 * Loads the plan's data into `projectId` (whose organization is `organizationId`); `log` gets
 * one line per 10 runs. Returns the totals loaded.
 */
export async function seed(client, { organizationId, projectId, releaseId }, options, log = () => {}) {
  const seedPlan = plan(options);
  const { runs, cases, added } = options;
  const HOUR = 3_600_000;
  const base = Math.floor((options.endAt ?? Date.now()) / HOUR) * HOUR - (runs + 2) * HOUR;
  // A run's id is of its creation; its counter the random one its PRNG id starts with.
  const runId = (run) => uuid7Of(base + run.n * HOUR, Number.parseInt(run.id.slice(0, 7), 16) >>> 2, run.id);

  // Cases, created a day before the first run (the new ones just before the last run).
  let piece = '';
  const pieces = [];
  for (let i = 0; i < cases + added; i++) {
    const c = caseOf(i);
    const created = iso(i < cases ? base - 24 * HOUR : base + (runs - 1) * HOUR - 60_000);
    piece += `${seedPlan.caseIds[i]}\t${organizationId}\t${projectId}\t${escape(c.title)}\t${escape(c.automationId)}\t${escape(c.section)}\t${['low', 'medium', 'high', 'critical'][i % 4]}\t${created}\t${created}\n`;
    if (piece.length > 1_000_000) (pieces.push(piece), (piece = ''));
  }
  pieces.push(piece);
  await copy(
    client,
    'COPY test_case (id, organization_id, project_id, title, automation_id, section, priority, created_at, updated_at) FROM STDIN',
    pieces,
  );

  // One build per run, assigned to the release.
  let builds = '';
  for (const run of seedPlan.runPlan) {
    const created = iso(base + run.n * HOUR - 5 * 60_000);
    builds += `${run.buildId}\t${organizationId}\t${projectId}\t${releaseId}\tshop ${run.branch} #${run.n + 1}\t${run.n + 1}\t${run.commitSha}\t${run.branch}\thttps://github.com/acme/shop\tassigned\tapi\t${created}\t${created}\n`;
  }
  await copy(
    client,
    'COPY build (id, organization_id, project_id, release_id, name, build_number, commit_sha, branch, repo_url, status, source, created_at, updated_at) FROM STDIN',
    [builds],
  );

  let rows = 0;
  for (const run of seedPlan.runPlan) {
    const results = resultsOfRun(options, seedPlan, run.n);
    const created = base + run.n * HOUR;
    const counts = { total: results.length, passed: 0, failed: 0, blocked: 0, skipped: 0, retest: 0, untested: 0, flaky: 0 };
    const r = prng(options.seed, 5000 + run.n);
    const id = runId(run);
    const runCases = [];
    const stored = [];
    let runCase = '';
    let result = '';
    for (let k = 0; k < results.length; k++) {
      const res = results[k];
      counts[res.status]++;
      if (res.flaky) counts.flaky++;
      const caseId = seedPlan.caseIds[res.index];
      // Results arrive in 1,000-result batches, 20 s apart: a batch shares its created_at.
      const batchAt = created + 60_000 + Math.floor(k / 1000) * 20_000;
      const resultId = uuid7Of(batchAt, k % 1000, r.uuid());
      runCase += `${id}\t${caseId}\t${resultId}\t${res.status}\t${res.flaky ? 't' : 'f'}\t${iso(batchAt)}\n`;
      const f = res.failure;
      result += `${resultId}\t${organizationId}\t${id}\t${caseId}\t${res.status}\t${res.duration}\t${escape(f ? f.message : res.message)}\t{}\t${escape(f?.type)}\t${escape(f?.stack)}\t${escape(f?.signature)}\t${res.retries}\t${res.flaky ? 't' : 'f'}\t${iso(batchAt - 1000 - (k % 1000) * 10)}\t${iso(batchAt)}\n`;
      if (result.length > 1_000_000) {
        runCases.push(runCase);
        stored.push(result);
        runCase = result = '';
      }
    }
    runCases.push(runCase);
    stored.push(result);

    await client.query('BEGIN');
    await client.query(
      `INSERT INTO test_run (id, organization_id, project_id, build_id, release_id, name, status, source,
                             total, passed, failed, blocked, skipped, retest, untested, flaky,
                             submitted_at, completed_at, created_at, updated_at, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'api', $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
      [
        id, organizationId, projectId, run.buildId, releaseId, run.name, run.status,
        counts.total, counts.passed, counts.failed, counts.blocked, counts.skipped, counts.retest, counts.untested, counts.flaky,
        iso(created + 40 * 60_000), run.status === 'completed' ? iso(created + 41 * 60_000) : null, iso(created),
        iso(created + 41 * 60_000), run.n + 1,
      ],
    );
    await copy(client, 'COPY test_run_case (test_run_id, test_case_id, result_id, status, flaky, result_created_at) FROM STDIN', runCases);
    await copy(
      client,
      'COPY test_result (id, organization_id, test_run_id, test_case_id, status, duration_ms, message, defects, failure_type, stack_trace, signature, retries, flaky, executed_at, created_at) FROM STDIN',
      stored,
    );
    await client.query('COMMIT');
    rows += results.length;
    if ((run.n + 1) % 10 === 0 || run.n === runs - 1) log(`  run ${run.n + 1}/${runs} loaded (${rows} results)`);
  }
  await client.query('BEGIN');
  await client.query('UPDATE project SET runs_created = $2 WHERE id = $1', [projectId, runs]);
  await client.query(BACKFILL_CASE_OUTCOMES, [projectId]);
  if (releaseId) await client.query(BACKFILL_RELEASE_SLOTS, [[releaseId]]);
  await client.query('COMMIT');
  log('  flaky list summary (case_outcomes) and release slots (release_slot) filled');
  return { cases: cases + added, runs, results: rows, flakyCases: seedPlan.flakyCases.map((i) => seedPlan.caseIds[i]), stableCases: seedPlan.stable.slice(0, 50).map((i) => seedPlan.caseIds[i]) };
}

/** Sample case ids for the history page: flaky ones and stable ones (by the plan, no query). */
export function sampleCases(options, count = 20) {
  const seedPlan = plan(options);
  return {
    flaky: seedPlan.flakyCases.slice(0, count).map((i) => seedPlan.caseIds[i]),
    stable: seedPlan.stable.slice(0, count).map((i) => seedPlan.caseIds[i]),
  };
}
