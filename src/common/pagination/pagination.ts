import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, type ValidationArguments } from 'class-validator';
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
