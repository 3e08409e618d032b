import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listNamedStatements } from './database/statement-listing.js';

/**
 * Writes every named statement of the build to `src/database/queries.sql`, the checked-in list
 * that shows each SQL change in review: `npm run queries`. The test suite fails when the
 * checked-in file and the code disagree.
 */
async function generate(): Promise<void> {
  const listed = await listNamedStatements(import.meta.dirname, '.js');
  const path = join('src', 'database', 'queries.sql');
  writeFileSync(path, listed);
  process.stdout.write(`wrote ${path}\n`);
}

generate().catch((error: unknown) => {
  process.stderr.write(`Listing the statements failed: ${String(error)}\n`);
  process.exit(1);
});
