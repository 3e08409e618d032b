import { startApp, type TestApp } from '../support/app.js';
import { get, runWith, setGate, UNKNOWN_ID, workspace, type Workspace } from './fixtures.js';

const NOT_REQUIRED = {
  name: 'no_missing_tests',
  passed: true,
  detail: expect.stringMatching(/not required/i),
};

describe('results intelligence: the quality gate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const gate = async (w: Workspace, run: string) =>
    (await get(t, w.key, `/testruns/${run}/gate`).expect(200)).body;

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
        ],
      });
      // The run's own answer does not carry the gate; its events do.
      expect((await get(t, w.key, `/testruns/${run}`).expect(200)).body).not.toHaveProperty('gate');
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
    });

    it.each([
      [{ gate_min_pass_rate: 1.5 }, 'gate_min_pass_rate'],
      [{ gate_min_pass_rate: -0.1 }, 'gate_min_pass_rate'],
      [{ gate_min_pass_rate: '0.5' }, 'gate_min_pass_rate'],
      [{ gate_forbid_missing_tests: 'yes' }, 'gate_forbid_missing_tests'],
      [{ gate_forbid_missing_tests: null }, 'gate_forbid_missing_tests'],
      [{ name: 'renamed' }, 'name'],
    ])('refuses %j: 400 naming %s', async (body, field) => {
      const w = await workspace(t);
      const res = await setGate(t, w.projectId, body).expect(400);
      expect(res.body).toMatchObject({ error: 'invalid_request', details: { field } });
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
