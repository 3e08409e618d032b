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
 * A pg client that prepares each parameterized statement the first time it runs on its
 * connection and afterwards only binds and executes it. TypeORM sends every query unnamed, so
 * PostgreSQL would parse and plan it again on each call, which here costs more than running
 * it. The statements are the application's own few texts (parameters are never inlined), and
 * each connection prepares at most `MAX_PREPARED_PER_CONNECTION`.
 */
export class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();

  // The override has to accept every form `pg.Client.query` does.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      const name = statementName(config);
      if (this.prepared.has(name) || this.prepared.size < MAX_PREPARED_PER_CONNECTION) {
        this.prepared.add(name);
        return super.query({ name, text: config, values }, callback);
      }
    }
    return super.query(config, values, callback);
  }
}
