import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, type ValidationArguments } from 'class-validator';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { IsTimestampFilter } from '../validation.js';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** Largest `offset` (CONTRACT §5); beyond it PostgreSQL's bigint overflows (a 500). */
export const MAX_OFFSET = 1_000_000_000;

/** Query strings arrive as text: whole numbers become numbers, anything else fails `IsInt`. */
export function toInteger({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
}

/**
 * An optional whole-number query parameter within `minimum`–`maximum` (the initializer of the
 * property is its default); anything else is a 400 that states the range.
 */
export function IntegerQueryParam(docs: {
  minimum: number;
  maximum: number;
  default: number;
  description?: string;
}) {
  const range = `must be an integer from ${docs.minimum} to ${docs.maximum.toLocaleString('en')}`;
  const rule = { message: ({ property }: ValidationArguments) => `${property} ${range}` };
  // Applied in the order the stacked decorators were (the last first): errors keep their order.
  return applyDecorators(
    Max(docs.maximum, rule),
    Min(docs.minimum, rule),
    IsInt(rule),
    Transform(toInteger),
    ApiPropertyOptional(docs),
  );
}

/** `limit` and `offset` of every list (CONTRACT §5); list query DTOs extend it. */
export class PaginationQuery {
  @IntegerQueryParam({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  limit: number = DEFAULT_PAGE_SIZE;

  @IntegerQueryParam({ minimum: 0, maximum: MAX_OFFSET, default: 0 })
  offset: number = 0;
}

/** A list whose items can also be filtered by creation time (strictly after / before). */
export class CreatedBetweenQuery extends PaginationQuery {
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Created strictly after' })
  @IsOptional()
  @IsTimestampFilter()
  created_after?: Date;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Created strictly before',
  })
  @IsOptional()
  @IsTimestampFilter()
  created_before?: Date;
}

/** Applies a `CreatedBetweenQuery`'s time range to a query of `alias`. */
export function whereCreatedBetween<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  query: CreatedBetweenQuery,
): void {
  if (query.created_after)
    qb.andWhere(`${alias}.createdAt > :createdAfter`, { createdAfter: query.created_after });
  if (query.created_before)
    qb.andWhere(`${alias}.createdAt < :createdBefore`, { createdBefore: query.created_before });
}

/**
 * Narrows a list of `alias` to the filters given, newest first: each of `conditions` (in its
 * order) whose value is set, its value named after its key, then the query's time range.
 * Returns whether anything narrowed the list.
 */
export function whereFiltersNewestFirst<T extends ObjectLiteral, K extends string>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  conditions: Record<K, string>,
  values: Partial<Record<K, string>>,
  query: CreatedBetweenQuery,
): boolean {
  let filtered = Boolean(query.created_after || query.created_before);
  for (const [key, condition] of Object.entries(conditions) as Array<[K, string]>) {
    const value = values[key];
    if (value === undefined) continue;
    qb.andWhere(condition, { [key]: value });
    filtered = true;
  }
  whereCreatedBetween(qb, alias, query);
  qb.orderBy(`${alias}.createdAt`, 'DESC').addOrderBy(`${alias}.id`, 'DESC');
  return filtered;
}

export class PaginationMeta {
  @ApiProperty({ description: 'Number of all matching items', example: 42 })
  total!: number;

  @ApiProperty({ description: 'Page size used', example: 25 })
  limit!: number;

  @ApiProperty({ description: 'Index of the first item returned', example: 0 })
  offset!: number;

  @ApiProperty({ description: 'True when more items exist after this page', example: true })
  has_more!: boolean;
}

export interface Page<T> {
  data: T[];
  pagination: PaginationMeta;
}

/** The one envelope builder every list uses. */
export function toPage<T>(data: T[], total: number, query: PaginationQuery): Page<T> {
  return {
    data,
    pagination: {
      total,
      limit: query.limit,
      offset: query.offset,
      has_more: query.offset + data.length < total,
    },
  };
}

/**
 * One page of a query (already filtered and ordered) and the exact number of all its matches,
 * in one round trip: the total is a scalar subquery of the page's own statement, `count(*)`
 * of the same filters (TypeORM's own counts DISTINCT ids, several times slower) or
 * `knownTotal`, an SQL expression over the query's parameters when the caller keeps the
 * number (e.g. a counter table). Only a page past the end, which has no row to carry the
 * total, costs a second statement.
 */
export async function fetchPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  query: PaginationQuery,
  knownTotal?: string,
): Promise<[T[], number]> {
  const total = `(${knownTotal ?? qb.clone().orderBy().select('count(*)').getQuery()})::int`;
  const { entities, raw } = await qb
    .clone()
    .addSelect(total, 'pagination_total')
    .limit(query.limit)
    .offset(query.offset)
    .getRawAndEntities<{ pagination_total: number }>();
  if (entities.length > 0) return [entities, raw[0].pagination_total];
  if (query.offset === 0) return [entities, 0];
  // Any matching row carries the total; no matching row means there are none.
  const row = await qb
    .clone()
    .orderBy()
    .select(total, 'total')
    .limit(1)
    .getRawOne<{ total: number }>();
  return [entities, row?.total ?? 0];
}
