import pg from 'pg';
import type { APIRequestContext } from 'playwright-core';
import { SERVICE_DOWN, expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { OPERATOR, json, seedApiKey, seedOrganization, signIn } from './seed.js';

const QUEUE_ROUTE = '**/internal/v1/organizations/*/build-queue?**';
const ASSIGN_ROUTE = '**/internal/v1/builds/*/assign';

/**
 * Projects, releases and the build queue in a real browser against the built service: a
 * project created from its organization's page (a duplicate key refused), a release created
 * from the project's page whose figures follow the runs a pipeline reports through the public
 * API, and builds a pipeline registers waiting in queue order until one is assigned to the
 * release from the console. Screenshots go to docs/console/.
 */
describe('web console: projects, releases and the build queue', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  /** The pipeline and the operator's setup, outside the browser. */
  let outside: APIRequestContext;
  let pipeline: Record<string, string>;
  let org: { id: string; name: string };
  let projectId: string;
  let releaseId: string;
  let runIds: string[];

  beforeAll(async () => {
    stack = await startConsoleStack('console_releases');
    ({ browser, outside } = stack);
    org = await seedOrganization(outside, { name: 'Release Co', plan: 'pro' });
    const key = await seedApiKey(outside, org.id, [
      'testruns:create',
      'testruns:read',
      'testruns:update',
      'results:submit',
      'builds:create',
      'builds:read',
    ]);
    pipeline = { Authorization: `Bearer ${key}` };
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const heading = () => page().getByRole('heading', { level: 1 });
  const tile = (name: string) => page().locator(`dd[data-count="${name}"]`);
  const queueRows = () => page().locator('tbody tr');

  it('creates a project from the organization’s projects page and lands on it', async () => {
    await page().goto(`/console/organizations/${org.id}/projects`);
    await signIn(page());
    await page().waitForURL(new RegExp(`/console/organizations/${org.id}/projects$`));
    await page().getByText('This organization has no projects yet.').waitFor();

    await page().getByRole('button', { name: 'New project' }).click();
    const dialog = page().getByRole('dialog', { name: 'New project' });
    await dialog.waitFor();
    // The name field has the focus: type, Tab to the key, Enter submits.
    await page().keyboard.type('Web shop');
    await page().keyboard.press('Tab');
    await page().keyboard.type('WEB');
    await dialog.getByLabel('Description (optional)').fill('The storefront');
    await expectAccessible(page());
    await screenshot(page(), 'project-new', { fullPage: false });
    await dialog.getByLabel('Key').press('Enter');

    await page().waitForURL(/\/console\/projects\/[0-9a-f-]{36}$/);
    projectId = page().url().split('/').pop() ?? '';
    // A new project opens on its overview, which says it has no runs yet.
    expect(await textWhen(heading(), 'Overview of Web shop')).toBe('Overview of Web shop');
    const made = await json<{ name: string; key: string; organization_id: string }>(
      outside.get(`/internal/v1/projects/${projectId}`, { headers: OPERATOR }),
      200,
    );
    expect(made).toMatchObject({ name: 'Web shop', key: 'WEB', organization_id: org.id });
  }, 30_000);

  it('shows the service’s refusal of a duplicate key, in the dialog', async () => {
    await page().goto(`/console/organizations/${org.id}/projects`);
    expect(await textWhen(page().getByRole('row', { name: /Web shop/ }), 'WEB')).toContain('WEB');
    await page().getByRole('button', { name: 'New project' }).click();
    const dialog = page().getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill('Web shop again');
    await dialog.getByLabel('Key').fill('WEB');
    await dialog.getByLabel('Key').press('Enter');
    expect(await textWhen(dialog.getByRole('alert'), 'already exists')).toBe(
      'A project with key "WEB" already exists.',
    );
    expect(await dialog.getByLabel('Key').getAttribute('aria-invalid')).toBe('true');
    expect(page().url()).toMatch(new RegExp(`/console/organizations/${org.id}/projects$`));
    await expectAccessible(page());
    await screenshot(page(), 'project-duplicate-key', { fullPage: false });
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const list = await json<{ pagination: { total: number } }>(
      outside.get(`/internal/v1/organizations/${org.id}/projects`, { headers: OPERATOR }),
      200,
    );
    expect(list.pagination.total).toBe(1);
  }, 30_000);

  it('creates a release from the project’s releases page', async () => {
    await page().goto(`/console/projects/${projectId}`);
    await page()
      .getByRole('navigation', { name: 'Project' })
      .getByRole('link', { name: 'Releases' })
      .click();
    await page().waitForURL(new RegExp(`/console/projects/${projectId}/releases$`));
    expect(await textWhen(heading(), 'Releases of Web shop')).toBe('Releases of Web shop');
    await page().getByText('This project has no releases yet.').waitFor();
    await expectAccessible(page());
    await screenshot(page(), 'releases-empty');

    await page().getByRole('button', { name: 'New release' }).click();
    const dialog = page().getByRole('dialog', { name: 'New release' });
    await dialog.getByLabel('Name').fill('Spring release');
    await dialog.getByLabel('Version (optional)').fill('2026.4');
    await dialog.getByLabel('Target date (optional)').fill('2026-04-30');
    await dialog.getByLabel('Name').press('Enter');

    await page().waitForURL(/\/console\/releases\/[0-9a-f-]{36}$/);
    releaseId = page().url().split('/').pop() ?? '';
    expect(await textWhen(heading(), 'Spring release')).toBe('Spring release');
    await page().getByText('No test runs belong to this release yet.').waitFor();
    expect(await tile('pass_rate').textContent()).toBe('—');
    expect(await page().locator('dl.facts').textContent()).toContain('2026-04-30');
  }, 30_000);

  it('shows the counts and pass rate of the runs a pipeline reports, as the public API does', async () => {
    const outcome = (id: string, status: string) => ({ automation_id: id, title: id, status });
    const reports = [
      [
        outcome('cart.adds', 'passed'),
        outcome('cart.removes', 'passed'),
        outcome('cart.empties', 'passed'),
        outcome('pay.card', 'failed'),
      ],
      [
        outcome('search.finds', 'passed'),
        outcome('search.sorts', 'blocked'),
        outcome('search.pages', 'untested'),
      ],
    ];
    runIds = [];
    for (const [n, results] of reports.entries()) {
      const run = await json<{ id: string }>(
        outside.post('/api/v1/testruns', {
          headers: pipeline,
          data: { project_id: projectId, release_id: releaseId, name: `Nightly ${n + 1}` },
        }),
      );
      await json(
        outside.post(`/api/v1/testruns/${run.id}/results`, {
          headers: pipeline,
          data: { results },
        }),
      );
      runIds.push(run.id);
    }
    // A run of the project outside the release counts for nothing here.
    await json(
      outside.post('/api/v1/testruns', {
        headers: pipeline,
        data: { project_id: projectId, name: 'Unrelated' },
      }),
    );

    await page().reload();
    // 7 cases, 6 executed, 4 passed: pass rate 4/6, completion 6/7.
    expect(await textWhen(tile('total'), '7')).toBe('7');
    expect(await tile('pass_rate').textContent()).toBe('66.67%');
    expect(await tile('completion_rate').textContent()).toBe('85.71%');
    expect(await tile('passed').textContent()).toBe('4');
    expect(await tile('failed').textContent()).toBe('1');
    expect(await tile('blocked').textContent()).toBe('1');
    expect(await tile('untested').textContent()).toBe('1');
    expect(await tile('runs').textContent()).toBe('2');
    expect(await page().locator('.title-row').textContent()).toContain('Not ready');
    const progress = await json<{ pass_rate: number; completion_rate: number }>(
      outside.get(`/api/v1/releases/${releaseId}/progress`, { headers: pipeline }),
      200,
    );
    expect(progress).toMatchObject({ pass_rate: 0.6667, completion_rate: 0.8571, ready: false });

    // Its runs, newest first, each linked to its page.
    const runs = page().getByRole('table', { name: 'Test runs' }).locator('tbody tr');
    expect(await textWhen(runs.first(), 'Nightly 2')).toContain('In progress');
    expect(await runs.count()).toBe(2);
    expect(await runs.nth(1).textContent()).toContain('4 cases');
    await expectAccessible(page());
    await screenshot(page(), 'release');

    await runs.first().getByRole('link', { name: 'Nightly 2' }).click();
    await page().waitForURL(new RegExp(`/console/runs/${runIds[1]}$`));
    await page().goBack();
    await page().waitForURL(new RegExp(`/console/releases/${releaseId}$`));

    // The project's list shows the same progress.
    await page().goto(`/console/projects/${projectId}/releases`);
    const row = page().getByRole('row', { name: /Spring release/ });
    expect(await textWhen(row, '85.71% done')).toContain('66.67% passed');
    expect(await row.textContent()).toContain('Not ready');
    expect(await row.textContent()).toContain('2026.4');
    await expectAccessible(page());
    await screenshot(page(), 'releases');
  }, 30_000);

  it('edits the release; a move backwards is refused by the service', async () => {
    await page().goto(`/console/releases/${releaseId}`);
    const form = page().getByRole('form', { name: 'Edit release' });
    await form.getByLabel('Status').selectOption('in_progress');
    await form.getByLabel('Version').fill('2026.4.1');
    await form.getByLabel('Version').press('Enter');
    expect(await textWhen(page().locator('.title-row'), 'In progress')).toContain('In progress');
    expect(await textWhen(page().locator('dl.facts'), '2026.4.1')).toContain('2026.4.1');
    expect(await form.getByRole('status').textContent()).toBe('Saved.');

    await form.getByLabel('Status').selectOption('planned');
    await form.getByLabel('Name').press('Enter');
    expect(await textWhen(form.getByRole('alert'), 'cannot move')).toBe(
      'A release cannot move from in_progress to planned.',
    );
    const saved = await json<{ status: string; version: string }>(
      outside.get(`/internal/v1/releases/${releaseId}`, { headers: OPERATOR }),
      200,
    );
    expect(saved).toMatchObject({ status: 'in_progress', version: '2026.4.1' });
    await expectAccessible(page());
    await screenshot(page(), 'release-edit-refused');
  }, 30_000);

  // Issue 29: a release whose runs retention deleted says so (the worker's sweep counts them).
  it('says how many of the release’s runs retention deleted', async () => {
    await page().goto(`/console/releases/${releaseId}`);
    const facts = page().locator('dl.facts');
    expect(await textWhen(facts, '2026.4.1')).not.toContain('Runs deleted');
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query('UPDATE release SET runs_deleted = 2 WHERE id = $1', [releaseId]);
    } finally {
      await db.end();
    }
    await page().reload();
    expect(await textWhen(facts, 'Runs deleted')).toContain(
      'Runs deleted2 by the project’s retention',
    );
    await expectAccessible(page());
    await screenshot(page(), 'release-runs-deleted');
  }, 30_000);

  it('lists the builds a pipeline registers in queue order', async () => {
    const names = ['web #101', 'web #102', 'docs #7'];
    for (const name of names) {
      const queued = await json<{ status: string; queue_position: number }>(
        outside.post('/api/v1/builds', {
          headers: pipeline,
          data: {
            name,
            branch: 'main',
            commit_sha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
            ...(name.startsWith('web') ? { project_id: projectId } : {}),
          },
        }),
        202,
      );
      expect(queued.status).toBe('planned');
    }

    await page().goto(`/console/organizations/${org.id}/projects`);
    await page()
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link', { name: 'Build queue' })
      .click();
    await page().waitForURL(new RegExp(`/console/organizations/${org.id}/build-queue$`));
    expect(await textWhen(heading(), 'Build queue of Release Co')).toBe(
      'Build queue of Release Co',
    );
    expect(await textWhen(queueRows().first(), 'web #101')).toMatch(/^1web #101/);
    // Project names come from a second read, which may land after the queue's.
    expect(await textWhen(queueRows().first(), 'Web shop')).toMatch(/Web shop/);
    expect(await queueRows().allTextContents()).toEqual([
      expect.stringMatching(/^1web #101.*main.*9fceb02d0a.*Web shop/),
      expect.stringMatching(/^2web #102.*Web shop/),
      expect.stringMatching(/^3docs #7/),
    ]);
    await expectAccessible(page());
    await screenshot(page(), 'build-queue');
  }, 30_000);

  it('assigns a build to the release from the keyboard; the queue and the release follow', async () => {
    await page().getByRole('button', { name: 'Assign web #102 to a release' }).focus();
    await page().keyboard.press('Enter');
    const dialog = page().getByRole('dialog', { name: 'Assign “web #102” to a release' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Project').inputValue()).toBe(projectId);
    expect(await textWhen(dialog.getByLabel('Release'), 'Spring release')).toContain(
      'Spring release (2026.4.1) — In progress',
    );
    await expectAccessible(page());
    await screenshot(page(), 'build-assign', { fullPage: false });
    // Project, release, then the Assign button.
    await page().keyboard.press('Tab');
    await page().keyboard.press('Tab');
    await page().keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    // The queue closes up: what was behind the assigned build moves up.
    expect(await textWhen(page().getByRole('navigation', { name: 'Pages' }), '1–2 of 2')).toBe(
      '1–2 of 2',
    );
    expect(await queueRows().allTextContents()).toEqual([
      expect.stringMatching(/^1web #101/),
      expect.stringMatching(/^2docs #7/),
    ]);

    const builds = await json<{
      data: Array<{ name: string; status: string; release_id: string }>;
    }>(outside.get(`/api/v1/builds?release_id=${releaseId}`, { headers: pipeline }), 200);
    expect(builds.data).toEqual([
      expect.objectContaining({ name: 'web #102', status: 'assigned', release_id: releaseId }),
    ]);
    await page().goto(`/console/releases/${releaseId}`);
    expect(await textWhen(tile('builds'), '1')).toBe('1');
  }, 30_000);

  it('shows the service’s refusal of an assignment, and keeps the build queued', async () => {
    await page().goto(`/console/organizations/${org.id}/build-queue`);
    await page().route(ASSIGN_ROUTE, (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'invalid_request',
          message: 'release_id does not name a resource of this organization',
          details: { field: 'release_id' },
        }),
      }),
    );
    try {
      await page().getByRole('button', { name: 'Assign docs #7 to a release' }).click();
      const dialog = page().getByRole('dialog', { name: 'Assign “docs #7” to a release' });
      await textWhen(dialog.getByLabel('Release'), 'Spring release');
      await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
      expect(await textWhen(dialog.getByRole('alert'), 'release_id')).toBe(
        'release_id does not name a resource of this organization',
      );
      await page().keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    } finally {
      await page().unroute(ASSIGN_ROUTE);
    }
    expect(await queueRows().count()).toBe(2);
  }, 30_000);

  it('pages through the queue in URLs that can be shared, and says when it cannot load', async () => {
    for (let n = 1; n <= 24; n++) {
      await json(
        outside.post(`/internal/v1/organizations/${org.id}/builds`, {
          headers: OPERATOR,
          data: { name: `ui build ${String(n).padStart(2, '0')}` },
        }),
        202,
      );
    }
    await page().goto(`/console/organizations/${org.id}/build-queue`);
    const pages = page().getByRole('navigation', { name: 'Pages' });
    expect(await textWhen(pages, '1–25 of 26')).toBe('1–25 of 26Next');
    await pages.getByRole('link', { name: 'Next' }).click();
    await page().waitForURL(
      new RegExp(`/console/organizations/${org.id}/build-queue\\?offset=25$`),
    );
    await page().reload();
    expect(await textWhen(pages, '26–26 of 26')).toBe('26–26 of 26Previous');
    expect(await queueRows().allTextContents()).toEqual([expect.stringMatching(/^26ui build 24/)]);

    await page().route(QUEUE_ROUTE, (route) => route.fulfill(SERVICE_DOWN));
    try {
      await page().reload();
      expect(await textWhen(page().getByRole('alert'), 'Down for a moment.')).toContain('(503)');
    } finally {
      await page().unroute(QUEUE_ROUTE);
    }
    await page().getByRole('button', { name: 'Try again' }).click();
    expect(await textWhen(pages, '26–26 of 26')).toBe('26–26 of 26Previous');
  }, 30_000);
});
