import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import {
  db,
  get,
  quarantine,
  runWith,
  setGate,
  UNKNOWN_ID,
  workspace,
  type Workspace,
} from './fixtures.js';

const NOT_REQUIRED = {
  name: 'no_missing_tests',
  passed: true,
  detail: expect.stringMatching(/not required/i),
};
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('results intelligence: the quality gate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const gate = async (w: Workspace, run: string) =>
    (await get(t, w.key, `/testruns/${run}/gate`).expect(200)).body;
  const rule = (body: { rules: Array<{ name: string }> }, name: string) =>
    body.rules.find((r) => r.name === name);

  describe('GET /testruns/{id}/gate', () => {
    it('passes a run without new failures when the project sets nothing', async () => {
      const w = await workspace(t);
      await runWith(t, w, { 'g.a': 'passed', 'g.b': 'failed' });
      const run = await runWith(t, w, { 'g.a': 'passed', 'g.b': 'failed' });
      expect(await gate(w, run)).toEqual({
        test_run_id: run,
        passed: true,
        rules: [
          { name: 'no_new_failures', passed: true, detail: expect.any(String) },
          { name: 'min_pass_rate', passed: true, detail: expect.stringMatching(/^Skipped/) },
          NOT_REQUIRED,
          {
            name: 'min_tests',
            passed: true,
            detail: '2 executed results; the project needs at least 1.',
          },
        ],
        evaluated_at: ISO,
      });
    });

    it('fails a run in which nothing ran, by default, and reads the project’s min_tests', async () => {
      const w = await workspace(t);
      const empty = await runWith(t, w, {}, { name: 'Empty' });
      const untested = await runWith(t, w, { 'n.a': 'untested' }, { name: 'Untested' });
      for (const run of [empty, untested]) {
        const body = await gate(w, run);
        expect(body.passed).toBe(false);
        expect(rule(body, 'min_tests')).toEqual({
          name: 'min_tests',
          passed: false,
          detail: '0 executed results; the project needs at least 1.',
        });
      }
      const run = await runWith(t, w, { 'n.a': 'passed', 'n.b': 'skipped', 'n.c': 'untested' });
      expect(rule(await gate(w, run), 'min_tests')).toMatchObject({ passed: true });
      await setGate(t, w.projectId, { gate_min_tests: 3 }).expect(200);
      expect(rule(await gate(w, run), 'min_tests')).toEqual({
        name: 'min_tests',
        passed: false,
        detail: '2 executed results; the project needs at least 3.',
      });
      await setGate(t, w.projectId, { gate_min_tests: 0 }).expect(200);
      const none = await gate(w, empty);
      expect(rule(none, 'min_tests')).toMatchObject({ passed: true });
      expect(none.passed).toBe(true);
    });

    it('evaluates now with today’s quarantine, while the run keeps its verdict at completion', async () => {
      const w = await workspace(t);
      await runWith(t, w, { 'k.a': 'passed', 'k.b': 'passed' });
      const run = await runWith(t, w, { 'k.a': 'failed', 'k.b': 'passed' });
      const completed = (await get(t, w.key, `/testruns/${run}`).expect(200)).body;
      expect(completed.gate).toEqual({ passed: false, evaluated_at: ISO });
      await quarantine(t, w, w.cases.get('k.a') as string);
      const now = await gate(w, run);
      expect(now.passed).toBe(true);
      expect(Date.parse(now.evaluated_at)).toBeGreaterThanOrEqual(
        Date.parse(completed.gate.evaluated_at),
      );
      // The verdict the pipeline was given stays on the run, whatever the quarantine became.
      expect((await get(t, w.key, `/testruns/${run}`).expect(200)).body.gate).toEqual(
        completed.gate,
      );
    });

    it('keeps the verdict through a reopening and renews it at the next completion', async () => {
      const w = await workspace(t);
      await runWith(t, w, { 'r.a': 'passed' });
      const run = await runWith(t, w, { 'r.a': 'failed' });
      const patch = (status: string) =>
        t.http.patch(`/api/v1/testruns/${run}`).set(withKey(w.key)).send({ status }).expect(200);
      const first = (await get(t, w.key, `/testruns/${run}`).expect(200)).body.gate;
      expect(first).toEqual({ passed: false, evaluated_at: ISO });
      const reopened = await patch('in_progress');
      expect(reopened.body).toMatchObject({ status: 'in_progress', gate: first });
      await t.http
        .post(`/api/v1/testruns/${run}/results`)
        .set(withKey(w.key))
        .send({ results: [{ automation_id: 'r.a', status: 'passed' }] })
        .expect(201);
      // Judged again now it passes, but not completed: the kept verdict is still the first.
      expect((await gate(w, run)).passed).toBe(true);
      expect((await get(t, w.key, `/testruns/${run}`).expect(200)).body.gate).toEqual(first);
      const again = await patch('completed');
      expect(again.body.gate).toEqual({ passed: true, evaluated_at: ISO });
      expect(Date.parse(again.body.gate.evaluated_at)).toBeGreaterThanOrEqual(
        Date.parse(first.evaluated_at),
      );
      // The completed event carries the very evaluation the run keeps.
      const [event] = await db(t).query<Array<{ data: { gate: unknown } }>>(
        `SELECT data FROM domain_event
          WHERE organization_id = $1 AND type = 'testrun.completed.v1' AND data->>'id' = $2
          ORDER BY created_at DESC, id DESC LIMIT 1`,
        [w.orgId, run],
      );
      expect(event.data.gate).toEqual(again.body.gate);
    });

    // The rules over seeded runs (quarantine, minimum pass rate, missing tests) and the verdict
    // in the run's events are at the service tier (test/insights/run-insights.medium-spec.ts).

    it('answers 404 for unknown or foreign runs and needs testruns:read', async () => {
      const w = await workspace(t);
      const run = await runWith(t, w, { 'x.a': 'passed' });
      await get(t, w.key, `/testruns/${UNKNOWN_ID}/gate`).expect(404);
      const other = await workspace(t);
      await get(t, other.key, `/testruns/${run}/gate`).expect(404);
      const reader = await workspace(t, ['results:read']);
      const res = await get(t, reader.key, `/testruns/${run}/gate`).expect(403);
      expect(res.body.details.required_scopes).toEqual(['testruns:read']);
    });
  });

  describe('PATCH /internal/v1/projects/{id}', () => {
    it('sets and clears the gate settings and answers the project', async () => {
      const w = await workspace(t);
      const res = await setGate(t, w.projectId, {
        gate_min_pass_rate: 0.9,
        gate_forbid_missing_tests: true,
      }).expect(200);
      expect(res.body).toEqual({
        id: w.projectId,
        name: expect.any(String),
        key: expect.any(String),
        description: null,
        gate_min_pass_rate: 0.9,
        gate_forbid_missing_tests: true,
        gate_min_tests: 1,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const kept = await setGate(t, w.projectId, { gate_forbid_missing_tests: false }).expect(200);
      expect(kept.body).toMatchObject({
        gate_min_pass_rate: 0.9,
        gate_forbid_missing_tests: false,
      });
      const cleared = await setGate(t, w.projectId, { gate_min_pass_rate: null }).expect(200);
      expect(cleared.body.gate_min_pass_rate).toBeNull();
      await setGate(t, w.projectId, { gate_min_pass_rate: 0 }).expect(200);
      await setGate(t, w.projectId, { gate_min_pass_rate: 1 }).expect(200);
      const minTests = await setGate(t, w.projectId, { gate_min_tests: 250 }).expect(200);
      expect(minTests.body).toMatchObject({ gate_min_pass_rate: 1, gate_min_tests: 250 });
      const zero = await setGate(t, w.projectId, { gate_min_tests: 0 }).expect(200);
      expect(zero.body.gate_min_tests).toBe(0);
      const untouched = await setGate(t, w.projectId, { gate_min_pass_rate: 0.5 }).expect(200);
      expect(untouched.body.gate_min_tests).toBe(0);
    });

    it.each([
      [{ gate_min_pass_rate: 1.5 }, 'gate_min_pass_rate'],
      [{ gate_min_pass_rate: -0.1 }, 'gate_min_pass_rate'],
      [{ gate_min_pass_rate: '0.5' }, 'gate_min_pass_rate'],
      [{ gate_forbid_missing_tests: 'yes' }, 'gate_forbid_missing_tests'],
      [{ gate_forbid_missing_tests: null }, 'gate_forbid_missing_tests'],
      [{ gate_min_tests: -1 }, 'gate_min_tests'],
      [{ gate_min_tests: 1.5 }, 'gate_min_tests'],
      [{ gate_min_tests: '2' }, 'gate_min_tests'],
      [{ gate_min_tests: null }, 'gate_min_tests'],
      [{ gate_min_tests: 2 ** 31 }, 'gate_min_tests'],
      [{ name: 'renamed' }, 'name'],
    ])('refuses %j: 400 naming %s', async (body, field) => {
      const w = await workspace(t);
      const res = await setGate(t, w.projectId, body).expect(400);
      expect(res.body).toMatchObject({ error: 'invalid_request', details: { field } });
    });

    it('reads the settings back from GET …/gate-settings, as the PATCH left them', async () => {
      const w = await workspace(t);
      const fresh = await t.http
        .get(`/internal/v1/projects/${w.projectId}/gate-settings`)
        .set(OPERATOR)
        .expect(200);
      expect(fresh.body).toMatchObject({
        id: w.projectId,
        gate_min_pass_rate: null,
        gate_forbid_missing_tests: false,
        gate_min_tests: 1,
      });
      const saved = await setGate(t, w.projectId, {
        gate_min_pass_rate: 0.95,
        gate_min_tests: 10,
      }).expect(200);
      const read = await t.http
        .get(`/internal/v1/projects/${w.projectId}/gate-settings`)
        .set(OPERATOR)
        .expect(200);
      expect(read.body).toEqual(saved.body);
      await t.http
        .get(`/internal/v1/projects/${UNKNOWN_ID}/gate-settings`)
        .set(OPERATOR)
        .expect(404);
      await t.http
        .get(`/internal/v1/projects/${w.projectId}/gate-settings`)
        .set({ 'X-Forwarded-Proto': 'https', Authorization: `Bearer ${w.key}` })
        .expect(401);
    });

    it('answers 404 for an unknown project and 401 without the operator token', async () => {
      await setGate(t, UNKNOWN_ID, { gate_min_pass_rate: 0.5 }).expect(404);
      const w = await workspace(t);
      await t.http
        .patch(`/internal/v1/projects/${w.projectId}`)
        .set({ 'X-Forwarded-Proto': 'https', Authorization: `Bearer ${w.key}` })
        .send({ gate_min_pass_rate: 0.5 })
        .expect(401);
    });
  });
});
