import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';

/*
 * The floors `npm run lint` keeps (eslint.config.js): a file is linted as if it had gained one
 * import, without writing it, and the rule that must refuse that import does.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function rulesBrokenBy(path: string, addedImport: string): Promise<string[]> {
  const text = `${readFileSync(path, 'utf8')}\n${addedImport}\n`;
  const [result] = await eslint.lintText(text, { filePath: path });
  return result.messages.map((message) => message.ruleId ?? message.message);
}

describe('import floors', () => {
  it('refuses a new import cycle in the console', async () => {
    // The pager already formats its numbers with shared/formats.ts.
    const broken = await rulesBrokenBy(
      'packages/console/src/shared/formats.ts',
      "export { Pager } from './components/pager';",
    );
    expect(broken).toContain('import-x/no-cycle');
  }, 60_000);

  it('refuses a new import cycle in the server', async () => {
    // environment.ts reads the settings it validates with settings.ts.
    const broken = await rulesBrokenBy(
      'src/config/settings.ts',
      "export { settingsFromEnvironment } from './environment.js';",
    );
    expect(broken).toContain('import-x/no-cycle');
  }, 60_000);

  it("refuses a console page that imports another feature's page", async () => {
    const broken = await rulesBrokenBy(
      'packages/console/src/cases/pages/case-page.tsx',
      "export { RunPage } from '../../runs/pages/run-page';",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it('refuses shared UI that imports a feature', async () => {
    const broken = await rulesBrokenBy(
      'packages/console/src/shared/components/pager.tsx',
      "export { runRoutes } from '../../runs/routes';",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it("refuses a run's table that calls up into the use cases built on it", async () => {
    const broken = await rulesBrokenBy(
      'src/testruns/testruns.service.ts',
      "export { SubmitResults } from '../test-run-lifecycle/submit-results.usecase.js';",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it('refuses releases that import the builds built on them', async () => {
    const broken = await rulesBrokenBy(
      'src/releases/releases.service.ts',
      "export { BuildLookup } from '../builds/build-lookup.js';",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it("refuses a database module that imports a feature (the entity list is the app's)", async () => {
    const broken = await rulesBrokenBy(
      'src/database/data-source-options.ts',
      "export { Build } from '../builds/entities/build.entity.js';",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it('refuses limits that import the access guard above them (auth ⇄ limits)', async () => {
    const broken = await rulesBrokenBy(
      'src/limits/monthly-quota.service.ts',
      "export { AdmissionService } from '../auth/admission.service.js';",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it('refuses keys that import the organization routes above them (auth ⇄ organizations)', async () => {
    const broken = await rulesBrokenBy(
      'src/auth/api-keys.service.ts',
      "export { OrganizationsService } from '../organizations/organizations.service.js';",
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it('refuses an EntityManager call in a service', async () => {
    const broken = await rulesBrokenBy(
      'src/builds/builds.service.ts',
      'export const leak = (transactions: Transactions) => transactions.manager.query("SELECT 1");',
    );
    expect(broken).toContain('no-restricted-syntax');
  }, 60_000);

  it("passes the run's and the release's low folders as they are", async () => {
    const results = await eslint.lintFiles([
      'src/testruns',
      'src/results',
      'src/releases',
      'src/database',
      'src/tenants',
      'src/routes',
      'src/limits',
      'src/auth',
    ]);
    expect(results.flatMap((result) => result.messages)).toEqual([]);
  }, 60_000);

  it('passes the files as they are', async () => {
    const [result] = await eslint.lintFiles(['packages/console/src/shared/formats.ts']);
    expect(result.messages).toEqual([]);
  }, 60_000);
});
