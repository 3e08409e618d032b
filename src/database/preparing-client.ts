import { createHash } from 'node:crypto';
import pg from 'pg';

/** Statements one connection keeps prepared; later new ones run unprepared. */
const MAX_PREPARED_PER_CONNECTION = 200;
/** Statement texts whose names are remembered (hashing each time costs more than a look-up). */
const MAX_REMEMBERED_NAMES = 2_000;
const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `tm_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (names.size >= MAX_REMEMBERED_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * A pg client that prepares each statement with scalar parameters the first time it runs on
 * its connection and afterwards only binds and executes it, so PostgreSQL can reuse its plan.
 * TypeORM sends every query unnamed, and PostgreSQL would parse and plan the short queries of
 * the read paths (authentication, quota, a page of a list) again on each call, which costs more
 * than running them. Statements with array parameters (the batch writes and look-ups, whose
 * arrays hold 1 or 10,000 values) stay unnamed and are planned for their actual values: a
 * generic plan cannot know an array's size. The statements are the application's own few
 * texts (parameters are never inlined), and each connection prepares at most
 * `MAX_PREPARED_PER_CONNECTION`.
 */
export class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();
  /** Texts whose prepared statement went stale, and how often (their next name's suffix). */
  private readonly renewed = new Map<string, number>();

  // The override has to accept every form `pg.Client.query` does.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (
      typeof config === 'string' &&
      Array.isArray(values) &&
      values.length > 0 &&
      !values.some((value) => Array.isArray(value))
    ) {
      const renewals = this.renewed.get(config);
      const name = `${statementName(config)}${renewals ? `_${renewals}` : ''}`;
      if (this.prepared.has(name) || this.prepared.size < MAX_PREPARED_PER_CONNECTION) {
        this.prepared.add(name);
        const result = super.query({ name, text: config, values }, callback);
        if (!(result instanceof Promise)) return result;
        return result.catch((error: unknown) => {
          if (isStalePlan(error)) this.renew(config, name);
          throw error;
        });
      }
    }
    return super.query(config, values, callback);
  }

  /**
   * A migration changed what a prepared statement returns (PostgreSQL then refuses to run it
   * again): the call fails, and the next one prepares the text afresh under a new name.
   */
  private renew(text: string, name: string): void {
    this.renewed.set(text, (this.renewed.get(text) ?? 0) + 1);
    this.prepared.delete(name);
    super.query(`DEALLOCATE ${name}`).catch(() => undefined);
  }
}

function isStalePlan(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as Error & { code?: string }).code === '0A000' &&
    error.message.includes('cached plan must not change result type')
  );
}
