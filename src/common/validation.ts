import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsUUID, registerDecorator, type ValidationOptions } from 'class-validator';

/** Trims surrounding whitespace of a string field (other types pass through to fail validation). */
export const Trim = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

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

/** A query-string timestamp (ISO 8601), converted to a Date for the filter. */
export const ToDate = () =>
  Transform(({ value }) => {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return value;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : date;
  });

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
