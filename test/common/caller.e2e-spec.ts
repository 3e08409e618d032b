import { type Caller, OPERATOR, organizationCaller } from '../../src/common/caller.js';
import { ProjectsRepository } from '../../src/projects/projects.repository.js';
import { ReleasesRepository } from '../../src/releases/releases.repository.js';
import { TestRunsRepository } from '../../src/testruns/test-runs.repository.js';
import { createProject, createRelease, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES } from '../factories/runs.js';
import { startApp, type TestApp } from '../support/app.js';

describe('Caller: a repository given an organization keeps to it, the operator reaches any', () => {
  let t: TestApp;
  let owner: Caller;
  let other: Caller;
  const ids = { project: '', release: '', testCase: '', run: '' };
  beforeAll(async () => {
    t = await startApp();
    const a = await createTenant(t, RUN_SCOPES);
    const b = await createTenant(t, RUN_SCOPES);
    owner = organizationCaller(a.org.id);
    other = organizationCaller(b.org.id);
    ids.project = (await createProject(t, a.org.id)).id;
    ids.release = (await createRelease(t, ids.project)).id;
    ids.testCase = (await createTestCase(t, ids.project)).id;
    ids.run = (await createRun(t, a.key, ids.project)).id;
  });
  afterAll(() => t.close());

  const finders: Array<[string, (caller: Caller) => Promise<{ id: string } | null>]> = [
    ['a project', (caller) => t.app.get(ProjectsRepository).find(caller, ids.project)],
    ['a test case', (caller) => t.app.get(ProjectsRepository).testCase(caller, ids.testCase)],
    ['a release', (caller) => t.app.get(ReleasesRepository).find(caller, ids.release)],
    ['a test run', (caller) => t.app.get(TestRunsRepository).find(caller, ids.run)],
  ];

  it.each(finders)(
    '%s: its organization and the operator find it, another organization not',
    async (_, find) => {
      expect(await find(owner)).not.toBeNull();
      expect(await find(OPERATOR)).not.toBeNull();
      expect(await find(other)).toBeNull();
    },
  );
});
