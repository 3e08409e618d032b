import type { Io } from '../../packages/reporter/src/main.js';
import { httpTransport } from '../../packages/reporter/src/transport.js';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { OPERATOR } from '../support/app.js';
import { junit, SHA, startReporterHarness, type ReporterHarness } from './reporter-harness.js';

/**
 * What a pipeline's reporting costs of the organization's monthly quota (issue 28): every call
 * counts (CONTRACT §4), as the organization's `calls_this_period` says.
 */
describe('tm-report spends few calls', () => {
  let h: ReporterHarness;
  beforeAll(async () => {
    h = await startReporterHarness();
  });
  afterAll(() => h.t.close());

  /** A fresh organization, its key and project, and how many calls it has spent so far. */
  async function tenant() {
    const { org, key } = await createTenant(h.t, [...RUN_SCOPES, 'builds:create', 'builds:read']);
    const project = await createProject(h.t, org.id);
    const callsSpent = async (): Promise<number> =>
      (await h.t.http.get(`/internal/v1/organizations/${org.id}`).set(OPERATOR).expect(200)).body
        .calls_this_period;
    return { key, project, callsSpent };
  }

  /** A small Surefire report (`TEST-<class>.xml`): one suite of three cases. */
  const surefire = (suite: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="${suite}" time="0.02" tests="3" errors="0" skipped="0" failures="0">\n  <properties>\n    <property name="java.version" value="21"/>\n  </properties>\n  <testcase name="adds" classname="${suite}" time="0.001"/>\n  <testcase name="subtracts" classname="${suite}" time="0.001"/>\n  <testcase name="divides" classname="${suite}" time="0.002"/>\n</testsuite>\n`;

  /** Counts a report's calls by route, and the polls for another shard's request in flight. */
  function counting() {
    const calls = { ingest: 0, polls: 0 };
    const retry: Io['retry'] = {
      transport: async (outgoing, timeoutMs) => {
        if (outgoing.headers['content-type'] === 'application/xml') calls.ingest++;
        const response = await httpTransport(outgoing, timeoutMs);
        if (response.status === 409) calls.polls++;
        return response;
      },
    };
    return { calls, retry };
  }

  // Issue 28's target, ≤ 12 calls in all, needs the service to let a shard join the pipeline's
  // run without a call of its own (the report of branch rep-calls says what is left).
  it('a 4-shard GitHub Actions pipeline sends each shard’s reports in one call and completes with the gate in 9', async () => {
    const { key, project, callsSpent } = await tenant();
    const github = {
      TM_API_KEY: key,
      GITHUB_ACTIONS: 'true',
      GITHUB_RUN_ID: `calls-${project.id}`,
      GITHUB_RUN_NUMBER: '40',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_SHA: SHA,
      GITHUB_REF_NAME: 'main',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/web-shop',
    };
    for (let shard = 0; shard < 4; shard++) {
      h.write(`calls/${shard}/unit.xml`, junit(`calls.Shard${shard}.Unit`, 20, [shard]));
      h.write(`calls/${shard}/api.xml`, junit(`calls.Shard${shard}.Api`, 15));
    }
    const before = await callsSpent();
    const name = ['--project', project.key, '--run-name', 'pipeline'];
    const { calls, retry } = counting();
    const shards = await Promise.all(
      [0, 1, 2, 3].map((shard) =>
        h.report(['submit', `calls/${shard}/*.xml`, ...name, '--json'], github, retry),
      ),
    );
    for (const shard of shards)
      expect({ code: shard.code, err: shard.code ? shard.err : '' }).toEqual({ code: 0, err: '' });
    const submitted = (await callsSpent()) - before;
    const completed = await h.report(['complete', ...name, '--gate', '--json'], github);
    const spent = (await callsSpent()) - before;
    // Printed for the report of issue 28 and the bench.
    process.stdout.write(
      `4-shard pipeline: ${submitted} calls to submit (${calls.polls} of them polls for another shard's request in flight), ${spent} in all\n`,
    );
    expect(completed.code).toBe(1);
    const answer = JSON.parse(completed.out);
    expect(answer.run).toMatchObject({ status: 'completed', counts: { total: 140, failed: 4 } });
    expect(answer.gate.gate.passed).toBe(false);
    const runs = await h.get(`/api/v1/testruns?project_id=${project.id}`, key).expect(200);
    expect(runs.body.pagination.total).toBe(1);
    // Per shard: the project's key, 3 scope probes, the build, the run, one ingest, the run read.
    expect(calls.ingest).toBe(4);
    expect(submitted - calls.polls).toBeLessThanOrEqual(4 * 8);
    // The project, the run found (a probe, the build's and the run's replays), the gate's rules
    // and failure groups, the completion, the comparison and the flaky list: no scope probe.
    expect(spent - submitted).toBeLessThanOrEqual(9);
  }, 60_000);

  it('650 small Surefire reports go in at most 5 ingest calls', async () => {
    const { key, project, callsSpent } = await tenant();
    for (let i = 0; i < 650; i++) {
      h.write(
        `surefire/target/surefire-reports/TEST-com.acme.Class${i}Test.xml`,
        surefire(`com.acme.Class${i}Test`),
      );
    }
    const before = await callsSpent();
    const { calls, retry } = counting();
    const started = Date.now();
    const result = await h.report(
      [
        'submit',
        'surefire/target/surefire-reports/*.xml',
        '--project',
        project.key,
        '--run-name',
        'surefire',
        '--json',
      ],
      { TM_API_KEY: key },
      retry,
    );
    const seconds = (Date.now() - started) / 1000;
    const spent = (await callsSpent()) - before;
    process.stdout.write(
      `650 Surefire reports: ${calls.ingest} ingest calls, ${spent} calls in all, ${seconds.toFixed(1)} s\n`,
    );
    expect({ code: result.code, err: result.code ? result.err : '' }).toEqual({
      code: 0,
      err: expect.any(String),
    });
    const answer = JSON.parse(result.out);
    expect(answer.run.counts).toMatchObject({ total: 1950, passed: 1950 });
    expect(answer.uploaded).toHaveLength(650);
    expect(calls.ingest).toBeLessThanOrEqual(5);
  }, 120_000);
});
