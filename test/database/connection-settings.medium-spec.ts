import pg from 'pg';
import { testSettings } from '../support/app.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

describe("the service's database connections", () => {
  let s: ServiceTier;
  beforeAll(async () => {
    s = await startServiceTier([]);
  });
  afterAll(() => s.close());

  it('run with JIT off, whatever the server defaults to', async () => {
    const plain = new pg.Client({ connectionString: testSettings().databaseUrl });
    await plain.connect();
    try {
      // The server's own default here is on: the pool's setting is what turns it off.
      const [server] = (await plain.query('SHOW jit')).rows;
      expect(server.jit).toBe('on');
    } finally {
      await plain.end();
    }
    // Every connection of the pool, not only the first: hold several at once.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        s.db.query('SELECT current_setting($1) AS jit, pg_sleep(0.05)', ['jit']),
      ),
    );
    expect(answers.map(([row]) => row.jit)).toEqual(['off', 'off', 'off', 'off', 'off']);
  });
});
