import pg from 'pg';

const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A database of the console's own, copied from the run's migrated one: the pages show exactly
 * what the tests made (an empty list first), and the organizations made here stay out of the
 * other files' counts. Each browser test file names its own `suffix`. The run's teardown drops it with the worker's copy if a test cannot.
 */
export async function freshDatabase(
  suffix = 'console',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = process.env.TEST_DATABASE_NAME;
  if (!template) throw new Error('TEST_DATABASE_NAME is unset: run through jest (global setup)');
  const url = new URL(process.env.DATABASE_URL as string);
  const name = `${url.pathname.slice(1)}_${suffix}`;
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.query(
      `CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}`,
    );
  } finally {
    await admin.end();
  }
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
