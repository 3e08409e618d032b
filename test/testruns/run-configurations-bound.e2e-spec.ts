import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES, createRun, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

/**
 * `test_run.configurations` (migration RunsListContext) keeps the distinct configurations of a
 * run's slots for the runs list: a key may give each result its own 100-character
 * configuration, and every read of a run's row (TEST_RUN_COLUMNS) carries them, so the row
 * keeps the first 50 by name (`RUN_CONFIGURATIONS_KEPT`), and a page of the list stays small.
 */
describe('a run’s configurations, bounded', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('keeps a runs list page small whatever a run’s configurations', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id, { name: 'Many configurations' });
    const batches: number[] = [];
    for (let batch = 0; batch < 4; batch++) {
      const results = Array.from({ length: 5000 }, (_, i) => ({
        automation_id: 'one.case',
        status: 'passed',
        configuration: `${String(batch * 5000 + i).padStart(6, '0')}${'c'.repeat(94)}`,
      }));
      const start = performance.now();
      await submitResults(t, key, run.id, results).expect(201);
      batches.push(Math.round(performance.now() - start));
    }
    const start = performance.now();
    const listed = await t.http
      .get(`/internal/v1/projects/${project.id}/testruns`)
      .set(OPERATOR)
      .expect(200);
    const listMs = Math.round(performance.now() - start);
    const single = await t.http.get(`/api/v1/testruns/${run.id}`).set(withKey(key)).expect(200);
    process.stdout.write(
      `batches ms ${batches.join(', ')}; list ${listed.text.length} bytes in ${listMs} ms, ${(listed.body.data[0].configurations as string[]).length} configurations; public run ${single.text.length} bytes\n`,
    );
    expect(listed.text.length).toBeLessThan(100_000);
    const kept = listed.body.data[0].configurations as string[];
    expect(kept).toHaveLength(50);
    expect(kept[0]).toBe(`000000${'c'.repeat(94)}`);
    expect([...kept].sort()).toEqual(kept);
  }, 180_000);
});
