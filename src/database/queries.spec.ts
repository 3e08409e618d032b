import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { listNamedStatements } from './statement-listing.js';

const CHECKED_IN = join(import.meta.dirname, 'queries.sql');

describe('src/database/queries.sql', () => {
  it('lists every named statement as the repositories write it (npm run queries)', async () => {
    const listed = await listNamedStatements(join(import.meta.dirname, '..'), '.ts');
    if (readFileSync(CHECKED_IN, 'utf8') !== listed)
      throw new Error(
        `${relative(process.cwd(), CHECKED_IN)} is out of date: run \`npm run queries\` and commit it`,
      );
  });
});
