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

  it('passes the files as they are', async () => {
    const [result] = await eslint.lintFiles(['packages/console/src/shared/formats.ts']);
    expect(result.messages).toEqual([]);
  }, 60_000);
});
