import { Injectable, Param, type PipeTransform } from '@nestjs/common';
import { ApiError } from './errors/api-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * A resource id in a path: a malformed one answers 404 like an unknown one (CONTRACT §1),
 * never 400 or a database error.
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, string> {
  constructor(private readonly resource: string) {}

  transform(value: string): string {
    if (!isUuid(value)) throw ApiError.notFound(this.resource).refusedBeforeHandler();
    return value.toLowerCase();
  }
}

/** The id of a `resource` in the path segment `:name`, checked and lowercased by ParseIdPipe. */
export function PathId(resource: string, name = 'id'): ParameterDecorator {
  return Param(name, new ParseIdPipe(resource));
}
