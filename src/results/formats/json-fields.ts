import { ApiError } from '../../common/errors/api-error.js';

/**
 * Typed reads of a parsed JSON report, each naming the JSON path of what it refuses
 * (`body.suites[0].specs[2].title`): a report is a runner's document, not ours, so a field of
 * the wrong type is the client's 400, never a 500 from deep inside a parser. Paths are built
 * by the callers per object and list; a field's own path only when it is refused.
 */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(path: string, rule: string): never {
  throw ApiError.invalidField(path, `${path} must be ${rule}`);
}

export function objectAt(value: unknown, path: string): JsonObject {
  return isObject(value) ? value : refuse(path, 'an object');
}

export function listAt(value: unknown, path: string): unknown[] {
  return Array.isArray(value) ? value : refuse(path, 'an array');
}

/** `object[key]`, an object (required). */
export function objectField(object: JsonObject, key: string, path: string): JsonObject {
  const value = object[key];
  return isObject(value) ? value : refuse(`${path}.${key}`, 'an object');
}

/** `object[key]`, a list (required). */
export function listField(object: JsonObject, key: string, path: string): unknown[] {
  const value = object[key];
  return Array.isArray(value) ? value : refuse(`${path}.${key}`, 'an array');
}

/** `object[key]`, a list; absent or null is none. */
export function optionalList(object: JsonObject, key: string, path: string): unknown[] {
  const value = object[key];
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : refuse(`${path}.${key}`, 'an array');
}

/** `object[key]`, a string (required). */
export function stringField(object: JsonObject, key: string, path: string): string {
  const value = object[key];
  return typeof value === 'string' ? value : refuse(`${path}.${key}`, 'a string');
}

/** `object[key]`, a string; absent or null is null. */
export function optionalString(object: JsonObject, key: string, path: string): string | null {
  const value = object[key];
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : refuse(`${path}.${key}`, 'a string');
}

/** `object[key]`, a finite number; absent or null is null. */
export function optionalNumber(object: JsonObject, key: string, path: string): number | null {
  const value = object[key];
  if (value === undefined || value === null) return null;
  return typeof value === 'number' && Number.isFinite(value)
    ? value
    : refuse(`${path}.${key}`, 'a number');
}

/** `object[key]`, a list of strings; absent or null is none. */
export function stringList(object: JsonObject, key: string, path: string): string[] {
  const list = optionalList(object, key, path);
  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] !== 'string') refuse(`${path}.${key}[${i}]`, 'a string');
  }
  return list as string[];
}

/** `object[key]`, one of `mapping`'s keys (required), as `mapping` maps it. */
export function enumField<T>(
  object: JsonObject,
  key: string,
  path: string,
  mapping: Readonly<Record<string, T>>,
): T {
  const value = object[key];
  if (typeof value === 'string' && Object.hasOwn(mapping, value)) return mapping[value];
  return refuse(`${path}.${key}`, `one of ${Object.keys(mapping).join(', ')}`);
}
