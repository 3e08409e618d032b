import { createHash } from 'node:crypto';
import pg from 'pg';

/** The statements to prepare, by text, with their names. */
const PREPARED = new Map<string, string>();

/**
 * Marks a statement to be prepared once per connection and returns its text. Only for the
 * statements that run on every request or batch (authentication, the quota, a result
 * batch's upsert, counts and events) and whose best plan does not depend on their
 * parameters' values: a prepared statement may be run with a generic plan, which would not
 * suit, say, a list filtered by a rare value or a look-up of 10,000 ids by index.
 */
export function prepared(text: string): string {
  PREPARED.set(text, `tm_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`);
  return text;
}

/**
 * A pg client that gives up its connection when an answer did not come within its
 * `query_timeout` (a network that drops PostgreSQL's answers): node-postgres fails the query
 * but keeps it as the connection's current one, so every later query on that connection
 * would wait behind it, and the pool would hand the connection out again.
 */
export class BoundedClient extends pg.Client {
  // The override has to accept every form `pg.Client.query` does.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    const result: unknown = super.query(config, values, callback);
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      if (error instanceof Error && error.message === 'Query read timeout') {
        (
          this as unknown as { connection: { stream: { destroy(): void } } }
        ).connection.stream.destroy();
      }
      throw error;
    });
  }
}

/**
 * A pg client that prepares the statements marked with `prepared` the first time each runs on
 * its connection and afterwards only binds and executes them, so PostgreSQL reuses its plan.
 * TypeORM sends every query unnamed, and PostgreSQL would parse and plan them again on each
 * call, which for these statements costs more than running them.
 */
export class PreparingClient extends BoundedClient {
  /** Texts whose prepared statement went stale, and how often (their next name's suffix). */
  private readonly renewed = new Map<string, number>();

  // The override has to accept every form `pg.Client.query` does.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    const base = typeof config === 'string' ? PREPARED.get(config) : undefined;
    if (base === undefined || !Array.isArray(values)) return super.query(config, values, callback);
    const renewals = this.renewed.get(config);
    const name = renewals ? `${base}_${renewals}` : base;
    const result = super.query({ name, text: config, values }, callback);
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      if (isStalePlan(error)) this.renew(config, name);
      throw error;
    });
  }

  /**
   * A migration changed what a prepared statement returns (PostgreSQL then refuses to run it
   * again): the call fails, and the next one prepares the text afresh under a new name.
   */
  private renew(text: string, name: string): void {
    this.renewed.set(text, (this.renewed.get(text) ?? 0) + 1);
    super.query(`DEALLOCATE ${name}`).catch(() => undefined);
  }
}

/**
 * "cached plan must not change result type" is feature_not_supported (0A000). The code alone
 * decides (the message may be translated); renewing after another such error costs only a
 * new preparation.
 */
function isStalePlan(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: string }).code === '0A000';
}
