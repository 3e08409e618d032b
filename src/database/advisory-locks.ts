import type { EntityManager } from 'typeorm';

/**
 * Takes the advisory lock named `name` until the transaction of `manager` ends, waiting for
 * another transaction that holds it. Names read `<what>:<id>` (`build-queue:<organization>`),
 * hashed to PostgreSQL's 64-bit lock key.
 */
export async function lockForTransaction(manager: EntityManager, name: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
}
