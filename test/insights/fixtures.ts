import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { OPERATOR, withKey, type TestApp } from '../support/app.js';

/** Fixtures of the results-intelligence tests (CONTRACT §12). */
export const INSIGHT_SCOPES = [...RUN_SCOPES, 'builds:create'];
export const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';

export interface Workspace {
  orgId: string;
  key: string;
  projectId: string;
  /** Test case ids by automation id, as results created them. */
  cases: Map<string, string>;
}

export async function workspace(t: TestApp, scopes = INSIGHT_SCOPES): Promise<Workspace> {
  const tenant = await createTenant(t, scopes);
  const project = await createProject(t, tenant.org.id);
  return { orgId: tenant.org.id, key: tenant.key, projectId: project.id, cases: new Map() };
}

export async function createBuild(
  t: TestApp,
  w: Workspace,
  fields: { branch?: string; commit_sha?: string; build_number?: string } = {},
): Promise<string> {
  const res = await t.http
    .post('/api/v1/builds')
    .set(withKey(w.key))
    .send({ name: `build ${Math.random()}`, project_id: w.projectId, ...fields });
  if (res.status !== 202 && res.status !== 201)
    throw new Error(`build not created: ${res.status} ${res.text}`);
  return res.body.id;
}

export interface RunSpec {
  name?: string;
  build_id?: string;
  /** The run's status after its results (default `completed`). */
  status?: 'in_progress' | 'submitted' | 'completed';
  /** Per result: `message`, `retries` or `executed_at`. */
  extra?: Record<string, object>;
}

/** A run with one result per automation id (`{'a.one': 'passed'}`), then moved to `status`. */
export async function runWith(
  t: TestApp,
  w: Workspace,
  results: Record<string, string>,
  spec: RunSpec = {},
): Promise<string> {
  const run = await createRun(t, w.key, w.projectId, {
    name: spec.name ?? 'Nightly',
    ...(spec.build_id ? { build_id: spec.build_id } : {}),
  });
  const items = Object.entries(results).map(([automation_id, status]) => ({
    automation_id,
    status,
    ...spec.extra?.[automation_id],
  }));
  if (items.length > 0) {
    const res = await submitResults(t, w.key, run.id, items);
    if (res.status !== 201) throw new Error(`results refused: ${res.status} ${res.text}`);
    items.forEach((item, i) => w.cases.set(item.automation_id, res.body.data[i].test_case_id));
  }
  const status = spec.status ?? 'completed';
  if (status !== 'in_progress') {
    await t.http
      .patch(`/api/v1/testruns/${run.id}`)
      .set(withKey(w.key))
      .send({ status })
      .expect(200);
  }
  return run.id;
}

export function db(t: TestApp): DataSource {
  return t.app.get(DataSource);
}

/** Sets failure detail on a run's results of a case, as ingest will once it fills it. */
export async function setFailure(
  t: TestApp,
  runId: string,
  caseId: string,
  detail: { signature?: string | null; failure_type?: string | null; stack_trace?: string },
): Promise<void> {
  await db(t).query(
    `UPDATE test_result SET signature = $3, failure_type = $4, stack_trace = $5
     WHERE test_run_id = $1 AND test_case_id = $2`,
    [
      runId,
      caseId,
      detail.signature ?? null,
      detail.failure_type ?? null,
      detail.stack_trace ?? null,
    ],
  );
}

export async function quarantine(
  t: TestApp,
  w: Workspace,
  caseId: string,
  expiresAt: Date | null = null,
): Promise<void> {
  await db(t).query(
    `INSERT INTO quarantine_entry (test_case_id, project_id, organization_id, reason, expires_at)
     VALUES ($1, $2, $3, 'flaky', $4)`,
    [caseId, w.projectId, w.orgId, expiresAt],
  );
}

export function setGate(t: TestApp, projectId: string, body: object) {
  return t.http.patch(`/internal/v1/projects/${projectId}`).set(OPERATOR).send(body);
}

export function get(t: TestApp, key: string, path: string) {
  return t.http.get(`/api/v1${path}`).set(withKey(key));
}

/** The ids of a list's items, for order checks. */
export function ids(items: Array<{ test_case_id: string }>): string[] {
  return items.map((item) => item.test_case_id);
}
