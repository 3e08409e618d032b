import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { renderStatements } from './sql.js';

const NAMES_A_STATEMENT = /\b(preparedSql|pagedSql|sql)\(\s*'/;

/** Every file under `dir` with `extension` (no specs, no migrations) that names statements. */
function filesNamingStatements(dir: string, extension: '.ts' | '.js'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'migrations' ? [] : filesNamingStatements(path, extension);
    if (!entry.name.endsWith(extension) || entry.name.includes('.spec.')) return [];
    if (entry.name === `sql${extension}` || entry.name === `statement-listing${extension}`)
      return [];
    return NAMES_A_STATEMENT.test(readFileSync(path, 'utf8')) ? [path] : [];
  });
}

/**
 * `queries.sql` as the code under `root` (the sources, or the build) names its statements: loads
 * every module that declares some, then lists them all. Used by the test that checks the
 * checked-in file and by `npm run queries`, which rewrites it.
 */
export async function listNamedStatements(root: string, extension: '.ts' | '.js'): Promise<string> {
  const files = filesNamingStatements(root, extension);
  if (files.length === 0) throw new Error(`no file under ${root} names a statement`);
  for (const file of files) await import(file);
  return renderStatements();
}
