import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES, createRun, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, type TestApp } from '../support/app.js';
import { csvRecords } from '../support/csv.js';

/**
 * The run's CSV export (`GET /internal/v1/testruns/{id}/results/export`) as an attacker who
 * names runs and writes failure messages (any test's assertion text) sees it.
 */
describe('CSV export, attacked', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const exportOf = (runId: string) =>
    t.http
      .get(`/internal/v1/testruns/${runId}/results/export`)
      .set(OPERATOR)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });

  async function runWith(name: string, results: object[]) {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id, { name });
    await submitResults(t, key, run.id, results).expect(201);
    return run;
  }

  it('names the file in an RFC 8187 ext-value whatever the run is called', async () => {
    const run = await runWith(`Bob's (nightly) *`, [
      { automation_id: 'a', title: 'A', status: 'passed' },
    ]);
    const res = await exportOf(run.id).expect(200);
    const disposition = res.headers['content-disposition'] as string;
    const [, value] = /filename\*=UTF-8''(.*)$/.exec(disposition) ?? [];
    // attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~", and %XX.
    expect(value).toMatch(/^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+$/);
    expect(decodeURIComponent(value)).toBe(`Bob's (nightly) * results.csv`);
  });

  /**
   * Excel in a locale whose list separator is `;` (de-DE, fr-FR, …) splits a CSV it opens on
   * `;`: a message `x;=1+1;` then puts `=1+1` alone in a cell, which runs as a formula though
   * the cell as written starts with `x`. Not fixed: it.failing proves the guard misses it.
   */
  it.failing('leaves no formula for a semicolon-splitting spreadsheet', async () => {
    const run = await runWith('Nightly', [
      { automation_id: 'a', title: 'A', status: 'failed', message: 'x;=1+1;' },
    ]);
    const text = (await exportOf(run.id).expect(200)).body as string;
    expect(csvRecords(text)[0].message).toBe('x;=1+1;');
    const fields = text.split(/\r\n/)[1].split(';');
    expect(fields.filter((field) => /^[=+\-@]/.test(field))).toEqual([]);
  });
});
