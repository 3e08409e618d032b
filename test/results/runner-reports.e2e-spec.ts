import { readFileSync } from 'node:fs';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

const RUNNERS = 'test/fixtures/runners';

interface Result {
  test_case_id: string;
  status: string;
  configuration: string | null;
  retries: number;
  flaky: boolean;
  attempts: Array<{ status: string; message: string | null }>;
}

/**
 * CONTRACT §13 end to end, on the reports real runners wrote (test/fixtures/runners): a
 * failing matrix leg is not hidden, retries are kept as attempts, long names stay apart, and
 * the gate says what happened.
 */
describe('real runners’ reports through POST /results/ingest (CONTRACT §13)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  async function ingest(file: string, query = '') {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const res = await t.http
      .post(`/api/v1/results/ingest?project_id=${project.id}&run_name=CI&complete=true${query}`)
      .set(withKey(key))
      .set('Content-Type', 'application/xml')
      .send(readFileSync(`${RUNNERS}/${file}`, 'utf8'));
    expect(res.status).toBe(201);
    const runId: string = res.body.test_run_id;
    const results: Result[] = (
      await t.http.get(`/api/v1/testruns/${runId}/results?limit=100`).set(withKey(key)).expect(200)
    ).body.data;
    const run = (await t.http.get(`/api/v1/testruns/${runId}`).set(withKey(key)).expect(200)).body;
    const gate = (await t.http.get(`/api/v1/testruns/${runId}/gate`).set(withKey(key)).expect(200))
      .body;
    return { accepted: res.body.accepted as number, results, run, gate, key, org };
  }

  it('keeps Playwright’s two projects as two slots: the firefox failure fails the gate', async () => {
    const { accepted, results, run, gate } = await ingest('playwright/playwright-junit.xml');
    expect(accepted).toBe(24);
    expect(new Set(results.map((r) => r.configuration))).toEqual(new Set(['chromium', 'firefox']));
    // The test that fails only in firefox: one case, a failed slot beside a passed one.
    const byCase = new Map<string, Result[]>();
    for (const r of results) byCase.set(r.test_case_id, [...(byCase.get(r.test_case_id) ?? []), r]);
    const split = [...byCase.values()].filter(
      (slots) => new Set(slots.map((r) => r.status)).size > 1,
    );
    expect(split.length).toBeGreaterThan(0);
    expect(split[0].find((r) => r.status === 'failed')?.configuration).toBe('firefox');
    expect(run.counts).toMatchObject({ total: 24, failed: 5, passed: 17, skipped: 2, flaky: 2 });
    expect(gate.passed).toBe(false);
    expect(run.gate).toMatchObject({ passed: false });
  });

  it('reads Vitest’s repeated <failure> elements as failed attempts of one result', async () => {
    const { results } = await ingest('vitest/vitest-junit.xml');
    const retried = results.filter((r) => r.retries > 0);
    expect(retried.length).toBeGreaterThan(0);
    for (const r of retried) {
      expect(r.attempts).toHaveLength(r.retries);
      expect(r.attempts.every((a) => a.status === 'failed')).toBe(true);
    }
    expect(results.reduce((n, r) => n + r.retries, 0)).toBe(4);
  });

  it('merges gotestsum’s --rerun-fails repeats into one flaky result with its attempts', async () => {
    const { accepted, results, run } = await ingest('gotestsum/gotestsum-rerun-fails.xml');
    // 17 testcases in the report, 12 tests: the reruns are attempts, counted once.
    expect(accepted).toBe(12);
    expect(results).toHaveLength(12);
    const flaky = results.filter((r) => r.flaky);
    expect(flaky).toHaveLength(1);
    expect(flaky[0].attempts.length).toBeGreaterThan(0);
    expect(run.counts.flaky).toBe(1);
  });

  it('keeps two 1,050-character names that differ only at the end as two tests', async () => {
    const { key, run } = await ingest('mocha/mocha-xunit.xml');
    const cases: Array<{ automation_id: string }> = (
      await t.http
        .get(`/api/v1/projects/${run.project_id}/testcases?limit=100`)
        .set(withKey(key))
        .expect(200)
    ).body.data;
    const long = cases.filter((c) => c.automation_id.length > 900);
    expect(long).toHaveLength(2);
    for (const c of long) expect(c.automation_id).toMatch(/~[0-9a-f]{16}$/);
    expect(long[0].automation_id).not.toBe(long[1].automation_id);
  });

  it('puts every result of a report in the call’s configuration when the report names none', async () => {
    const { results } = await ingest('jest/jest-junit.xml', '&configuration=%20node%2024%20');
    expect(new Set(results.map((r) => r.configuration))).toEqual(new Set(['node 24']));
  });

  it('fails the gate of a run in which nothing ran (min_tests)', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const res = await t.http
      .post(`/api/v1/results/ingest?project_id=${project.id}&run_name=Empty&complete=true`)
      .set(withKey(key))
      .set('Content-Type', 'application/xml')
      .send('<testsuites><testsuite name="none" tests="0"></testsuite></testsuites>')
      .expect(201);
    const gate = (
      await t.http
        .get(`/api/v1/testruns/${res.body.test_run_id}/gate`)
        .set(withKey(key))
        .expect(200)
    ).body;
    expect(gate.passed).toBe(false);
    expect(gate.rules.find((r: { name: string }) => r.name === 'min_tests')).toMatchObject({
      passed: false,
    });
  });
});
