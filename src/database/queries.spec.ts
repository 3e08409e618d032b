import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { renderStatements } from './sql.js';

const SRC = join(import.meta.dirname, '..');
const CHECKED_IN = join(import.meta.dirname, 'queries.sql');

/** Every source file that names statements with `sql()` or `preparedSql()`. */
function filesNamingStatements(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : filesNamingStatements(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.spec.ts')) return [];
    if (path === join(SRC, 'database', 'sql.ts')) return [];
    return /\b(preparedSql|sql)\(\s*'/.test(readFileSync(path, 'utf8')) ? [path] : [];
  });
}

describe('src/database/queries.sql', () => {
  it('lists every named statement as the repositories write it (npm run queries)', async () => {
    const files = filesNamingStatements(SRC);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) await import(file);
    const rendered = renderStatements();
    if (process.env.UPDATE_QUERIES === '1') writeFileSync(CHECKED_IN, rendered);
    const checkedIn = readFileSync(CHECKED_IN, 'utf8');
    if (checkedIn !== rendered)
      throw new Error(
        `${relative(process.cwd(), CHECKED_IN)} is out of date: run \`npm run queries\` and commit it`,
      );
  });
});
