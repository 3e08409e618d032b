import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsDate,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';

/** Trims surrounding whitespace of a string field (other types pass through to fail validation). */
export const Trim = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/**
 * A resource's name: trimmed, then 1 to 255 characters. Applied in the order the stacked
 * decorators were (the last first), so the error messages keep their order.
 */
export function IsName() {
  return applyDecorators(Length(1, 255), IsString(), Trim());
}

/** Hex commit hash of 7–64 characters, either case (stored lowercase). */
export function IsCommitSha(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCommitSha',
      target: target.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be a hexadecimal commit hash of 7 to 64 characters`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && /^[0-9a-fA-F]{7,64}$/.test(value),
      },
    });
}

/** An http(s) URL of at most 2048 characters. */
export function IsHttpUrl(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isHttpUrl',
      target: target.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be an http(s) URL of at most 2048 characters`,
        ...options,
      },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string' || value.length > 2048) return false;
          try {
            const url = new URL(value);
            return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
          } catch {
            return false;
          }
        },
      },
    });
}

/** ISO 8601 date and time with a time zone (`Z` or `±hh:mm`); seconds and fraction optional. */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;
const EARLIEST = Date.UTC(1900, 0, 1);
const LATEST = Date.UTC(10000, 0, 1) - 1;

/** What every timestamp in input must be (CONTRACT §1). */
export const TIMESTAMP_RULE =
  'must be an ISO 8601 timestamp with a time zone, within the years 1900 to 9999 (UTC)';

/**
 * A timestamp from input (body field or filter) as a Date, or null when it is not one the API
 * takes: no time zone, a day the month does not have (JavaScript would roll it over), or a
 * time outside 1900–9999 once in UTC (PostgreSQL refused some: a 500).
 */
export function parseTimestamp(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const parts = TIMESTAMP.exec(value);
  if (!parts) return null;
  const [year, month, day, hour, minute, second, zoneHours, zoneMinutes] = parts
    .slice(1)
    .map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
  if (hour > 23 || minute > 59 || second > 59 || zoneHours > 23 || zoneMinutes > 59) return null;
  const date = new Date(value);
  const time = date.getTime();
  return time >= EARLIEST && time <= LATEST ? date : null;
}

/** A query-string timestamp filter, converted to a Date; anything else is a 400 naming it. */
export const IsTimestampFilter = () =>
  applyDecorators(
    Transform(({ value }) => parseTimestamp(value) ?? value),
    IsDate({ message: ({ property }) => `${property} ${TIMESTAMP_RULE}` }),
  );

/** A timestamp in a body, kept as the string sent; anything else is a 400 naming it. */
export function IsTimestamp(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isTimestamp',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} ${TIMESTAMP_RULE}`, ...options },
      validator: { validate: (value: unknown) => parseTimestamp(value) !== null },
    });
}

/**
 * A resource id in a body or query: a UUID, stored and compared lowercase (path ids are
 * lowercased by ParseIdPipe), so `ABC…` and `abc…` name the same resource.
 */
export function IsId(message: string, options: { each?: boolean } = {}) {
  const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
  return applyDecorators(
    Transform(({ value }) => (Array.isArray(value) ? value.map(lower) : lower(value))),
    IsUUID('all', { message, each: options.each }),
  );
}

/** An optional id, e.g. a list's filter, documented as a uuid. */
export function IsOptionalId(message: string) {
  return applyDecorators(ApiPropertyOptional({ format: 'uuid' }), IsOptional(), IsId(message));
}

/** A calendar date (`YYYY-MM-DD`) that exists, within the years 1900 to 9999. */
export function IsCalendarDate(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be a date (YYYY-MM-DD) within the years 1900 to 9999`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          /^\d{4}-\d{2}-\d{2}$/.test(value) &&
          parseTimestamp(`${value}T00:00:00Z`) !== null,
      },
    });
}
