import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { ACTION_INPUTS, commandLineOf } from '../../packages/reporter/src/action-inputs.js';
import { createProject } from '../factories/catalog.js';
import { junit, startReporterHarness, type ReporterHarness } from './reporter-harness.js';

const REPORTER = path.resolve('packages/reporter');

interface ActionYml {
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; default?: string }>;
}

const actionYml = () => parse(readFileSync(path.join(REPORTER, 'action.yml'), 'utf8')) as ActionYml;

/** Runs the built action entry as GitHub runs it: no arguments, inputs as INPUT_* variables. */
function runAction(
  cwd: string,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const inputEnv = Object.fromEntries(
    Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPORTER, actionYml().runs.main)],
      { cwd, env: { PATH: process.env.PATH ?? '', ...env, ...inputEnv }, timeout: 60_000 },
      (error, out, err) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

describe('the GitHub Action (packages/reporter/action.yml)', () => {
  it('runs the bundled entry on node24, and every input it declares is one the entry uses', () => {
    const action = actionYml();
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/action.js' });
    expect(existsSync(path.join(REPORTER, action.runs.main))).toBe(true);
    expect(Object.keys(action.inputs).sort()).toEqual(Object.keys(ACTION_INPUTS).sort());
    // Each input given changes the command line or the environment tm-report runs with.
    const base = commandLineOf({});
    for (const name of Object.keys(action.inputs)) {
      const value =
        name === 'command' ? 'complete' : ['gate', 'complete'].includes(name) ? 'true' : 'x';
      const given = commandLineOf({ [`INPUT_${name.toUpperCase()}`]: value });
      expect({ name, same: JSON.stringify(given) === JSON.stringify(base) }).toEqual({
        name,
        same: false,
      });
    }
    expect(
      commandLineOf({ INPUT_REPORTS: 'a/*.xml\n\n  b.json \n', 'INPUT_RUN-NAME': 'e2e' }).argv,
    ).toEqual(['submit', 'a/*.xml', 'b.json', '--run-name', 'e2e']);
  });

  it('the GitLab template is valid YAML whose job runs tm-report', () => {
    const template = parse(
      readFileSync(path.join(REPORTER, 'gitlab/tm-report.gitlab-ci.yml'), 'utf8'),
    ) as Record<string, { script: string[]; stage: string; when: string }>;
    expect(template['.tm-report']).toMatchObject({ stage: '.post', when: 'always' });
    expect(template['.tm-report'].script.join('\n')).toContain('tm-report $TM_REPORT_COMMAND');
  });

  describe('against the service', () => {
    let h: ReporterHarness;
    beforeAll(async () => {
      h = await startReporterHarness();
    });
    afterAll(() => h.t.close());
    const service = () => ({ TM_EXTRA_HEADERS: JSON.stringify({ 'X-Forwarded-Proto': 'https' }) });

    it('submits the reports its inputs name, completes the run and writes the job summary', async () => {
      const project = await createProject(h.t, h.orgId);
      h.write('action/unit.xml', junit('action.unit', 3, [2]));
      h.write('action/api.xml', junit('action.api', 2));
      const summary = path.join(mkdtempSync(path.join(tmpdir(), 'tm-action-')), 'summary.md');
      const done = await runAction(
        h.dir,
        {
          reports: 'action/unit.xml\naction/api.xml',
          project: project.key,
          'run-name': 'action',
          configuration: 'linux',
          complete: 'true',
          gate: 'false',
          url: `http://127.0.0.1:${h.port}/api/v1`,
          'api-key': h.key,
        },
        { ...service(), GITHUB_STEP_SUMMARY: summary },
      );
      expect({ code: done.code, err: done.code ? done.err : '' }).toEqual({ code: 0, err: '' });
      expect(done.out).toContain('completed: 5 results, 4 passed, 1 failed');
      expect(done.err + done.out).not.toContain(h.key);
      const runs = (await h.get(`/api/v1/testruns?project_id=${project.id}`).expect(200)).body;
      expect(runs.data).toHaveLength(1);
      expect(runs.data[0]).toMatchObject({ name: 'action', status: 'completed' });
      const results = (
        await h.get(`/api/v1/testruns/${runs.data[0].id}/results?limit=10`).expect(200)
      ).body;
      expect(new Set(results.data.map((r: { configuration: string }) => r.configuration))).toEqual(
        new Set(['linux']),
      );
      expect(readFileSync(summary, 'utf8')).toContain('action');
    });

    it('needs nothing but the service when the repository has tm-report.config.json', async () => {
      const project = await createProject(h.t, h.orgId);
      h.write('one-line/reports/a.xml', junit('one.a', 2));
      h.write(
        'one-line/tm-report.config.json',
        JSON.stringify({
          project: project.key,
          runName: 'one line',
          reports: 'reports/*.xml',
          complete: true,
        }),
      );
      const done = await runAction(
        path.join(h.dir, 'one-line'),
        {},
        {
          ...service(),
          TM_URL: `http://127.0.0.1:${h.port}/api/v1`,
          TM_API_KEY: h.key,
        },
      );
      expect({ code: done.code, err: done.code ? done.err : '' }).toEqual({ code: 0, err: '' });
      const runs = (await h.get(`/api/v1/testruns?project_id=${project.id}`).expect(200)).body;
      expect(runs.data[0]).toMatchObject({ name: 'one line', status: 'completed' });
      expect(runs.data[0].counts).toMatchObject({ total: 2, passed: 2 });
    });

    it('refuses an input it cannot read, naming it', async () => {
      const bad = await runAction(h.dir, { command: 'upload' });
      expect(bad).toMatchObject({
        code: 2,
        err: 'tm-report: error: The input command must be submit or complete, not "upload".\n',
      });
      const gate = await runAction(h.dir, { gate: 'yes', 'run-id': 'x' });
      expect(gate.err).toContain('The input gate must be true or false, not "yes".');
    });
  });
});
