import type { EntityManager } from 'typeorm';
import { sql } from './sql.js';

/** A list's two statements: a page whose rows carry the total, and the total alone. */
export interface PagedStatements {
  page: string;
  total: string;
}

/** The parts of a list's statement; `$1`… in them are the list's own parameters. */
export interface ListParts {
  /** A `WITH` clause both statements start with. */
  with?: string;
  select: string;
  from: string;
  where?: string;
  orderBy: string;
  /** A statement that counts all matches (default: `count(*)` of `from` and `where`). */
  total?: string;
}

/**
 * Names a list's statements `name` and `name.total`. The page's rows carry the exact number of
 * all its matches as a scalar subquery (one round trip), and it takes `LIMIT` and `OFFSET` as
 * the two parameters after the list's own. Optional filters are written
 * `($n::type IS NULL OR column = $n)`: a statement sent unprepared is planned with its
 * parameters' values, so a filter left out folds away and the indexes serve the rest.
 */
export function pagedSql(name: string, list: ListParts): PagedStatements {
  const prefix = list.with === undefined ? '' : `${list.with}\n`;
  const where = list.where === undefined ? '' : `\n        WHERE ${list.where}`;
  const total = list.total ?? `SELECT count(*) FROM ${list.from}${where}`;
  const used = `${prefix}${list.from}${where} ${total}`.match(/\$\d+/g) ?? [];
  const next = Math.max(0, ...used.map((p) => Number(p.slice(1)))) + 1;
  return {
    page: sql(
      name,
      `${prefix}SELECT ${list.select},
              coalesce((${total}), 0)::int AS pagination_total
         FROM ${list.from}${where}
        ORDER BY ${list.orderBy}
        LIMIT $${next} OFFSET $${next + 1}`,
    ),
    total: sql(`${name}.total`, `${prefix}SELECT coalesce((${total}), 0)::int AS total`),
  };
}

/**
 * One page of a list (`parameters` are its own, before `LIMIT` and `OFFSET`) and the number of
 * all its matches. Only a page past the end, which has no row to carry the total, costs a
 * second statement.
 */
export async function fetchPage<Row>(
  manager: EntityManager,
  statements: PagedStatements,
  parameters: unknown[],
  page: { limit: number; offset: number },
): Promise<[Row[], number]> {
  const rows: Array<Row & { pagination_total: number }> = await manager.query(statements.page, [
    ...parameters,
    page.limit,
    page.offset,
  ]);
  if (rows.length > 0) return [rows, rows[0].pagination_total];
  if (page.offset === 0) return [[], 0];
  const [{ total }]: Array<{ total: number }> = await manager.query(statements.total, parameters);
  return [[], total];
}
