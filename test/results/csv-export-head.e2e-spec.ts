import { jest } from '@jest/globals';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES, createRun, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, type TestApp } from '../support/app.js';
import { ResultsExportRepository } from '../../src/results/results-export.repository.js';

/**
 * A HEAD of a run's export sends no body: Node drops the writes and never applies back-pressure,
 * so a download that went on would read every page of the run for nothing.
 */
describe('HEAD of a CSV export', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('reads no more than the first page', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id, { name: 'Heads' });
    const results = Array.from({ length: 5000 }, (_, i) => ({
      automation_id: `head.case${i}`,
      status: 'passed',
    }));
    await submitResults(t, key, run.id, results).expect(201);

    const repository = t.app.get(ResultsExportRepository);
    const pages = repository.pages.bind(repository);
    let read = 0;
    const watched = jest.spyOn(repository, 'pages').mockImplementation(async function* (...args) {
      for await (const page of pages(...args)) {
        read++;
        yield page;
      }
    });
    try {
      const res = await t.http.head(`/internal/v1/testruns/${run.id}/results/export`).set(OPERATOR);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(read).toBe(1);
    } finally {
      watched.mockRestore();
    }
  }, 60_000);
});
