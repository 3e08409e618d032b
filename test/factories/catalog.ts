import type { TestApp } from '../support/app.js';
import { OPERATOR } from '../support/app.js';

let counter = 0;

async function created<T>(
  res: { status: number; body: T; text: string },
  what: string,
): Promise<T> {
  if (res.status !== 201) throw new Error(`${what} not created: ${res.status} ${res.text}`);
  return res.body;
}

export interface ProjectFixture {
  id: string;
  key: string;
  name: string;
}

export async function createProject(
  t: TestApp,
  organizationId: string,
  fields: object = {},
): Promise<ProjectFixture> {
  const n = ++counter;
  const res = await t.http
    .post(`/internal/v1/organizations/${organizationId}/projects`)
    .set(OPERATOR)
    .send({ name: `Project ${n}`, key: `P${n}`, ...fields });
  return created(res, 'project');
}

export interface ReleaseFixture {
  id: string;
  project_id: string;
  status: string;
}

export async function createRelease(
  t: TestApp,
  projectId: string,
  fields: object = {},
): Promise<ReleaseFixture> {
  const res = await t.http
    .post(`/internal/v1/projects/${projectId}/releases`)
    .set(OPERATOR)
    .send({ name: `Release ${++counter}`, ...fields });
  return created(res, 'release');
}

export interface TestCaseFixture {
  id: string;
  title: string;
  automation_id: string | null;
  updated_at: string;
}

export async function createTestCase(
  t: TestApp,
  projectId: string,
  fields: object = {},
): Promise<TestCaseFixture> {
  const res = await t.http
    .post(`/internal/v1/projects/${projectId}/testcases`)
    .set(OPERATOR)
    .send({ title: `Case ${++counter}`, ...fields });
  return created(res, 'test case');
}
