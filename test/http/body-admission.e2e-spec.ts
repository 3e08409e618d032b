import { connect } from 'node:net';
import { jest } from '@jest/globals';
import { BodyBudget } from '../../src/common/http/body-budget.js';
import { IdempotencyStore } from '../../src/idempotency/idempotency.store.js';
import { ResultWriter } from '../../src/results/result-writer.js';
import { createProject } from '../factories/catalog.js';
import { createApiKey, createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES } from '../factories/runs.js';
import { listenOnLoopback, startApp, withKey, type TestApp } from '../support/app.js';
import { pollUntil } from '../support/service-control.js';

const UNKNOWN_RUN = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';
const MIB = 1024 * 1024;

interface RawAnswer {
  status: string;
  headers: string;
  body: string;
}

/**
 * Sends a request's head announcing a JSON body of `length` bytes and only its first `sent`
 * bytes, over a socket of its own. Answers the server's answer (which can only come before the
 * body was read to its end), or 'no answer' after `waitMs`; `hang()` keeps the socket open
 * with the body unfinished until `close()`.
 */
function rawPost(
  port: number,
  path: string,
  authorization: string,
  length: number,
  sent = 1024,
  waitMs = 5_000,
): { answer: Promise<RawAnswer>; close: () => void } {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  const answered = new Promise<RawAnswer>((resolve) => {
    const timer = setTimeout(() => finish(), waitMs);
    const finish = () => {
      clearTimeout(timer);
      const head = answer.indexOf('\r\n\r\n');
      resolve(
        head < 0
          ? { status: answer || 'no answer', headers: '', body: '' }
          : {
              status: answer.slice(0, answer.indexOf('\r\n')),
              headers: answer.slice(0, head).toLowerCase(),
              body: answer.slice(head + 4),
            },
      );
    };
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (/\r\n\r\n\{.*\}$/s.test(answer)) finish();
    });
    socket.on('error', () => finish());
    socket.on('close', () => finish());
  });
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n` +
      `Authorization: ${authorization}\r\n\r\n${'{"results":['.padEnd(sent, ' ')}`,
  );
  return { answer: answered, close: () => socket.destroy() };
}

describe('request bodies: admitted before they are read, within a memory budget', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startApp({ BODY_MEMORY_BUDGET_MB: '20', BODY_BUDGET_WAIT_MS: '1500' });
    port = await listenOnLoopback(t);
  });
  afterAll(() => t.close());

  it('refuses a key without the scope, on Basic or past its limit without reading the body', async () => {
    const reader = await createTenant(t, ['testruns:read']);
    const basic = await createTenant(t, ['results:submit'], { plan: 'basic' });
    const spent = await createTenant(t, ['results:submit', 'testruns:read'], {
      monthly_call_limit: 1,
    });
    await t.http.get('/api/v1/testruns').set(withKey(spent.key)).expect(200);
    const path = `/api/v1/testruns/${UNKNOWN_RUN}/results`;
    const answers = await Promise.all(
      [reader, basic, spent].map(({ key }) => rawPost(port, path, `Bearer ${key}`, MIB).answer),
    );
    expect(answers.map((a) => [a.status, JSON.parse(a.body || '{}').error])).toEqual([
      ['HTTP/1.1 403 Forbidden', 'insufficient_scope'],
      ['HTTP/1.1 403 Forbidden', 'plan_required'],
      ['HTTP/1.1 429 Too Many Requests', 'rate_limit_exceeded'],
    ]);
    // The rest of the body is not read: the connection closes after the answer.
    for (const answer of answers) expect(answer.headers).toContain('connection: close');
  });

  it('holds bodies within the budget: past it a request waits, then answers 503 with Retry-After', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id);
    const path = `/api/v1/testruns/${run.id}/results`;
    const budget = t.app.get(BodyBudget);
    // 1 MiB of JSON is counted as 16 MiB: one fits in the budget of 20, two do not.
    const first = rawPost(port, path, `Bearer ${key}`, MIB, 1024, 10_000);
    await pollUntil(() => budget.inUse > 0, 'the first body to hold its share');
    const started = Date.now();
    const second = await rawPost(port, path, `Bearer ${key}`, MIB).answer;
    expect(second.status).toBe('HTTP/1.1 503 Service Unavailable');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(JSON.parse(second.body)).toEqual({
      error: 'service_unavailable',
      message: expect.any(String),
      details: {},
    });
    expect(second.headers).toMatch(/retry-after: \d+/);
    expect(second.headers).toContain('connection: close');
    // A body declared over 10 MiB is refused at once (413), not after a wait (503).
    const tooLarge = await rawPost(port, path, `Bearer ${key}`, 10 * MIB + 1).answer;
    expect(tooLarge.status).toBe('HTTP/1.1 413 Payload Too Large');
    // A small body still fits beside the large one.
    await t.http
      .post(path)
      .set(withKey(key))
      .send({ results: [{ automation_id: 'small', status: 'passed' }] })
      .expect(201);
    // The large body's client gives up: its share is free again, and the next one is read.
    first.close();
    await pollUntil(() => budget.inUse === 0, 'the share to be free');
    const results = Array.from({ length: 4000 }, (_, i) => ({
      automation_id: `budget.case${i}`,
      status: 'passed',
      message: 'x'.repeat(200),
    }));
    const res = await t.http.post(path).set(withKey(key)).send({ results });
    expect(res.status).toBe(201);
    expect(res.body.accepted).toBe(4000);
    expect(budget.inUse).toBe(0);
  });

  it('refuses more than 5,000 results from the raw bytes, before the body is parsed', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id);
    // Malformed after the 5,001st item: only a count made before parsing answers 413.
    const items = Array(5_001).fill('{"automation_id":"x","status":"passed"}').join(',');
    const body = `{"results":[${items},oops`;
    for (const path of [`/api/v1/testruns/${run.id}/results`, '/api/v1/results/ingest']) {
      const res = await t.http
        .post(path)
        .set(withKey(key))
        .set('Content-Type', 'application/json')
        .send(body);
      expect([res.status, res.body]).toEqual([
        413,
        { error: 'payload_too_large', message: expect.any(String), details: { limit: 5000 } },
      ]);
    }
    // Nor a list inside an item that long, or more objects and lists than 5,000 items hold.
    const path = `/api/v1/testruns/${run.id}/results`;
    const zeros = `{"results":[{"automation_id":"x","status":"passed","defects":[${'0,'.repeat(5_000)}0]}],oops`;
    // A batch holds 2 + 5,000 × (item, defects, attempts and 20 attempts) = 115,002 at most.
    const empties = `{"results":[${Array(1_000).fill(`{"defects":[${Array(120).fill('{}')}]}`)}],oops`;
    for (const [body, limit] of [
      [zeros, 5_000],
      [empties, 115_002],
    ] as const) {
      const res = await t.http
        .post(path)
        .set(withKey(key))
        .set('Content-Type', 'application/json')
        .send(body);
      expect([res.status, res.body]).toEqual([
        413,
        { error: 'payload_too_large', message: expect.any(String), details: { limit } },
      ]);
    }
    // Commas in strings and in nested lists are not results; a full batch's objects fit.
    const full = Array.from({ length: 5_000 }, (_, i) => ({
      automation_id: `full,${i}`,
      status: 'failed',
      defects: [`D-${i}`, 'D,2'],
    }));
    const ok = await t.http.post(path).set(withKey(key)).send({ results: full, complete: false });
    expect([ok.status, ok.body.accepted]).toEqual([201, 5_000]);
  });

  it('stores large reports as the budget allows, the others waiting without a transaction', async () => {
    // Spies on purpose: the budget's effect (at most two 1.2 MiB reports at once in a budget
    // of 20 MiB, and a waiting request holding no idempotency claim or transaction yet) shows
    // in no response or row, only in when the writer and the claim run.
    const roomy = await startApp({ BODY_MEMORY_BUDGET_MB: '20' });
    const { org, key } = await createTenant(roomy, RUN_SCOPES);
    const project = await createProject(roomy, org.id);
    await createApiKey(roomy, org.id, RUN_SCOPES);
    const writer = roomy.app.get(ResultWriter);
    const write = writer.write.bind(writer);
    let active = 0;
    let peak = 0;
    let stored = 0;
    const writes = jest.spyOn(writer, 'write').mockImplementation(async (...args) => {
      peak = Math.max(peak, ++active);
      try {
        return await write(...args);
      } finally {
        active--;
        stored++;
      }
    });
    const store = roomy.app.get(IdempotencyStore);
    const claim = store.claim.bind(store);
    const storedAtClaim: number[] = [];
    const claims = jest.spyOn(store, 'claim').mockImplementation((...args) => {
      storedAtClaim.push(stored);
      return claim(...args);
    });
    try {
      const report = (suite: number) => {
        const cases = Array.from(
          { length: 20_000 },
          (_, i) => `<testcase classname="gate.Suite${suite}" name="case${i}" time="0.001"/>`,
        );
        return `<testsuite>${cases.join('\n')}</testsuite>`;
      };
      // Each counts 8 × its 1.2 MiB: two fit in 20 MiB, the third waits.
      expect(report(0).length * 8 * 2).toBeLessThan(20 * MIB);
      expect(report(0).length * 8 * 3).toBeGreaterThan(20 * MIB);
      const responses = await Promise.all(
        [0, 1, 2].map((suite) =>
          roomy.http
            .post(`/api/v1/results/ingest?project_id=${project.id}`)
            .set(withKey(key))
            .set('Content-Type', 'application/xml')
            .set('Idempotency-Key', `budget-${suite}-${project.id}`)
            .send(report(suite)),
        ),
      );
      expect(responses.map((res) => [res.status, res.body.accepted])).toEqual([
        [201, 20_000],
        [201, 20_000],
        [201, 20_000],
      ]);
      expect(peak).toBe(2);
      // The third claimed its key only once a report was stored (or both were).
      const [first, second, third] = storedAtClaim.sort();
      expect([first, second]).toEqual([0, 0]);
      expect(third).toBeGreaterThanOrEqual(1);
      expect(roomy.app.get(BodyBudget).inUse).toBe(0);
    } finally {
      writes.mockRestore();
      claims.mockRestore();
      await roomy.close();
    }
  });
});
