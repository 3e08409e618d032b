import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, FieldError } from './api-error.js';

/**
 * Flattens class-validator's tree into dotted paths, with array items as `results[3].status`
 * so a client can point at the exact offending field.
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const flat: FieldError[] = [];
  for (const error of errors) {
    const path = joinPath(parent, error.property);
    for (const message of Object.values(error.constraints ?? {})) {
      const text = message.startsWith(`${error.property} `)
        ? `${path}${message.slice(error.property.length)}`
        : message;
      flat.push({ field: path, message: text });
    }
    if (error.children?.length) flat.push(...flattenValidationErrors(error.children, path));
  }
  return flat;
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent === '' ? property : `${parent}.${property}`;
}

/** The one global pipe: strips nothing silently (unknown fields are errors) and converts types. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validateCustomDecorators: false,
    exceptionFactory: (errors) =>
      ApiError.invalid(flattenValidationErrors(errors)).refusedBeforeHandler(),
  });
}
