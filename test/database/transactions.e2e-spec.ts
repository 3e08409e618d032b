import { pollUntil } from '../support/service-control.js';
import { DataSource } from 'typeorm';
import { Transactions } from '../../src/database/transactions.js';
import { startApp, type TestApp } from '../support/app.js';

describe('Transactions: afterCommit and beforeCommit', () => {
  let t: TestApp;
  let transactions: Transactions;
  let db: DataSource;
  const table = `after_commit_${process.pid}`;
  beforeAll(async () => {
    t = await startApp();
    transactions = t.app.get(Transactions);
    db = t.app.get(DataSource);
    await db.query(`CREATE TABLE ${table} (n int)`);
  });
  afterAll(async () => {
    await db.query(`DROP TABLE IF EXISTS ${table}`);
    await t.close();
  });
  const visible = async (n: number) =>
    (await db.query(`SELECT count(*)::int AS c FROM ${table} WHERE n = $1`, [n]))[0].c === 1;

  it('afterCommit runs once the outermost transaction has committed, seeing the committed change', async () => {
    const seen: boolean[] = [];
    await transactions.begin(async (manager) => {
      await manager.query(`INSERT INTO ${table} VALUES (1)`);
      // A nested run joins the same transaction: its callback also waits for the commit.
      await transactions.run(async () => {
        transactions.afterCommit(() => void visible(1).then((v) => seen.push(v)));
      });
      expect(seen).toEqual([]);
    });
    // The callback runs after the commit, on its own: wait for it rather than for a time.
    await pollUntil(() => seen.length > 0, 'the after-commit callback');
    expect(seen).toEqual([true]);
  });

  it('afterCommit never runs when the transaction rolls back', async () => {
    let ran = false;
    await expect(
      transactions.begin(async (manager) => {
        await manager.query(`INSERT INTO ${table} VALUES (2)`);
        transactions.afterCommit(() => (ran = true));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(ran).toBe(false);
    expect(await visible(2)).toBe(false);
  });

  it('afterCommit runs at once outside a transaction', () => {
    let ran = false;
    transactions.afterCommit(() => (ran = true));
    expect(ran).toBe(true);
  });

  const rows = async () =>
    (await db.query(`SELECT n FROM ${table} ORDER BY n`)).map((r: { n: number }) => r.n);

  it('beforeCommit runs last inside the transaction, after the work and what it queued', async () => {
    await db.query(`DELETE FROM ${table}`);
    const order: string[] = [];
    await transactions.begin(async (manager) => {
      await transactions.run(async () => {
        transactions.beforeCommit(async () => {
          order.push('first');
          await manager.query(`INSERT INTO ${table} VALUES (2)`);
          // Queued while finishing: still runs, still inside.
          transactions.beforeCommit(async () => void order.push('queued by the first'));
        });
      });
      await manager.query(`INSERT INTO ${table} VALUES (1)`);
      order.push('work');
    });
    expect(order).toEqual(['work', 'first', 'queued by the first']);
    expect(await rows()).toEqual([1, 2]);
  });

  it('beforeCommit failing rolls the whole transaction back', async () => {
    await db.query(`DELETE FROM ${table}`);
    await expect(
      transactions.begin(async (manager) => {
        await manager.query(`INSERT INTO ${table} VALUES (3)`);
        transactions.beforeCommit(async () => {
          throw new Error('counter unavailable');
        });
      }),
    ).rejects.toThrow('counter unavailable');
    expect(await rows()).toEqual([]);
  });

  it('beforeCommit needs a transaction', () => {
    expect(() => transactions.beforeCommit(async () => undefined)).toThrow(/transaction/);
  });
});
