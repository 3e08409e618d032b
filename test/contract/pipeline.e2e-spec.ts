import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { createProject, createRelease } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { listenOnLoopback, startApp, type TestApp } from '../support/app.js';
// The reporter's generated types: one copy, which this test keeps honest.
import type { paths } from '../../packages/reporter/src/schema.js';

/**
 * A pipeline driven through a client generated from the checked-in openapi.json
 * (openapi-typescript types + openapi-fetch): if the document and the service drift apart,
 * this stops compiling or fails.
 */
describe('generated client contract', () => {
  let t: TestApp;
  let client: ReturnType<typeof createClient<paths>>;
  let orgId: string;

  beforeAll(async () => {
    t = await startApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    const port = await listenOnLoopback(t);
    const tenant = await createTenant(t, [
      ...RUN_SCOPES,
      'builds:create',
      'builds:read',
      'webhooks:manage',
      'quarantine:manage',
    ]);
    orgId = tenant.org.id;
    client = createClient<paths>({
      baseUrl: `http://127.0.0.1:${port}`,
      headers: { Authorization: `Bearer ${tenant.key}`, 'X-Forwarded-Proto': 'https' },
    });
  });
  afterAll(() => t.close());

  it('has types that match openapi.json', async () => {
    const generated = astToString(
      await openapiTS(JSON.parse(readFileSync('openapi.json', 'utf8')), {
        defaultNonNullable: false,
      }),
    );
    const checkedIn = readFileSync('packages/reporter/src/schema.d.ts', 'utf8');
    const body = (text: string) => text.slice(text.indexOf('export interface paths'));
    expect(body(checkedIn)).toBe(body(generated));
  });

  it('registers a build, runs tests, ingests JUnit, reads progress and subscribes a webhook', async () => {
    const project = await createProject(t, orgId);
    const release = await createRelease(t, project.id);

    const build = await client.POST('/api/v1/builds', {
      body: { name: 'pipeline #1', commit_sha: 'abcdef0', release_id: release.id },
    });
    expect(build.response.status).toBe(201);
    expect(build.data?.status).toBe('assigned');

    const run = await client.POST('/api/v1/testruns', {
      body: {
        project_id: project.id,
        name: 'contract run',
        build_id: build.data?.id,
        release_id: release.id,
      },
    });
    expect(run.response.status).toBe(201);
    const runId = run.data?.id as string;

    const results = await client.POST('/api/v1/testruns/{id}/results', {
      params: { path: { id: runId } },
      body: {
        results: [
          { automation_id: 'contract.a', status: 'passed', duration_ms: 5 },
          { automation_id: 'contract.b', status: 'failed', message: 'boom' },
        ],
        complete: true,
      },
    });
    expect(results.response.status).toBe(201);
    expect(results.data?.accepted).toBe(2);

    const junit = await client.POST('/api/v1/results/ingest', {
      params: {
        query: {
          project_id: project.id,
          release_id: release.id,
          run_name: 'junit',
          complete: true,
        },
      },
      body: '<testsuite><testcase classname="contract" name="a"/><testcase classname="contract" name="b"/></testsuite>',
      bodySerializer: (body: unknown) => body as string,
      headers: { 'Content-Type': 'application/xml' },
    });
    expect(junit.response.status).toBe(201);
    expect(junit.data?.accepted).toBe(2);

    const progress = await client.GET('/api/v1/releases/{id}/progress', {
      params: { path: { id: release.id } },
    });
    expect(progress.data).toMatchObject({
      builds: 1,
      test_runs: { total: 2, completed: 2 },
      results: { total: 2, passed: 2 },
      ready: true,
    });

    const webhook = await client.POST('/api/v1/webhooks', {
      body: { url: 'http://127.0.0.1:9/hook', events: ['testrun.completed.v1'] },
    });
    expect(webhook.response.status).toBe(201);
    expect(webhook.data?.secret).toMatch(/^whsec_/);

    const listed = await client.GET('/api/v1/builds', {
      params: { query: { release_id: release.id, limit: 10 } },
    });
    expect(listed.data?.pagination.total).toBe(1);
    const missing = await client.GET('/api/v1/builds/{id}', {
      params: { path: { id: '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ error: 'not_found' });
  });

  it('reads back what the results say: failures, comparison, gate, history, flakiness, quarantine', async () => {
    const project = await createProject(t, orgId);
    const runOf = async (statuses: Record<string, 'passed' | 'failed'>) => {
      const run = await client.POST('/api/v1/testruns', {
        body: { project_id: project.id, name: 'nightly' },
      });
      const id = run.data?.id as string;
      const submitted = await client.POST('/api/v1/testruns/{id}/results', {
        params: { path: { id } },
        body: {
          results: Object.entries(statuses).map(([automation_id, status]) => ({
            automation_id,
            status,
            ...(status === 'failed'
              ? {
                  message: `expected 200 but got ${500 + automation_id.length}`,
                  failure_type: 'AssertionError',
                  stack_trace: `at ${automation_id} (spec.ts:${automation_id.length}:3)`,
                }
              : {}),
          })),
          complete: true,
        },
      });
      expect(submitted.response.status).toBe(201);
      return { id, results: submitted.data?.data ?? [] };
    };
    const baseline = await runOf({ 'c.a': 'passed', 'c.b': 'failed', 'c.flaky': 'passed' });
    const run = await runOf({ 'c.a': 'failed', 'c.b': 'failed', 'c.flaky': 'failed' });
    const failed = run.results.find((r) => r.status === 'failed');
    expect(failed).toMatchObject({ failure_type: 'AssertionError' });
    expect(failed?.signature).toMatch(/^[0-9a-f]{16}$/);

    const failures = await client.GET('/api/v1/testruns/{id}/failures', {
      params: { path: { id: run.id } },
    });
    expect(failures.data?.data).toHaveLength(1);
    expect(failures.data?.data[0]).toMatchObject({ count: 3, failure_type: 'AssertionError' });

    const comparison = await client.GET('/api/v1/testruns/{id}/comparison', {
      params: { path: { id: run.id } },
    });
    expect(comparison.data).toMatchObject({
      baseline_run_id: baseline.id,
      summary: { new_failures: 2, still_failing: 1, fixed: 0, new_tests: 0, missing_tests: 0 },
    });

    const caseId = failed?.test_case_id as string;
    const quarantined = await client.PUT('/api/v1/projects/{id}/quarantine/{testCaseId}', {
      params: { path: { id: project.id, testCaseId: caseId } },
      body: { reason: 'known' },
    });
    expect(quarantined.response.status).toBe(200);
    const entries = await client.GET('/api/v1/projects/{id}/quarantine', {
      params: { path: { id: project.id } },
    });
    expect(entries.data?.data.map((e) => e.test_case_id)).toEqual([caseId]);

    const gate = await client.GET('/api/v1/testruns/{id}/gate', {
      params: { path: { id: run.id } },
    });
    expect(gate.data?.rules.map((r) => r.name)).toEqual([
      'no_new_failures',
      'min_pass_rate',
      'no_missing_tests',
      'min_tests',
    ]);
    expect(gate.data?.evaluated_at).toEqual(expect.any(String));

    const history = await client.GET('/api/v1/testcases/{id}/results', {
      params: { path: { id: caseId }, query: { limit: 10 } },
    });
    expect(history.data?.data.map((r) => r.test_run_name)).toEqual(['nightly', 'nightly']);

    const flaky = await client.GET('/api/v1/projects/{id}/flaky-tests', {
      params: { path: { id: project.id }, query: { window: 10, min_executions: 2 } },
    });
    expect(flaky.response.status).toBe(200);
    expect(flaky.data?.pagination).toBeDefined();

    const removed = await client.DELETE('/api/v1/projects/{id}/quarantine/{testCaseId}', {
      params: { path: { id: project.id, testCaseId: caseId } },
    });
    expect(removed.response.status).toBe(204);
  });
});
