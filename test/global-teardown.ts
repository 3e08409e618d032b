import { Redis } from 'ioredis';
import pg from 'pg';

const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function globalTeardown(): Promise<void> {
  const name = process.env.TEST_DATABASE_NAME;
  if (name) {
    // The run's database and every worker's copy of it.
    const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $1 || '_w')`,
      [name],
    );
    for (const { datname } of rows) {
      await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    }
    await client.end();
  }
  const prefix = process.env.REDIS_PREFIX;
  if (prefix) {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    });
    try {
      await redis.connect();
      let cursor = '0';
      do {
        // The run's prefix and every worker's (`<prefix>_w<n>:`).
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    } catch {
      // Redis may have been stopped by a test; its keys are not worth failing the run for.
    } finally {
      redis.disconnect();
    }
  }
}
