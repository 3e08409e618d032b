import { readFileSync } from 'node:fs';
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  Module,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';
import { HttpResult } from '../../src/common/http/http-result.js';

type Schema = Record<string, unknown>;
interface Document {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

/** Every object schema closes: a field the code returns but the document lacks is an error. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = closed(value);
  if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;

/** A checked-in document and the validators of its responses. */
class DocumentSchemas {
  readonly document: Document;
  // OpenAPI 3.1's schemas are JSON Schema 2020-12 (nullable fields are `type: [T, "null"]`).
  readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction | null>();

  constructor(file: string) {
    this.document = JSON.parse(readFileSync(file, 'utf8'));
    (addFormats as unknown as (a: Ajv2020) => void)(this.ajv);
    for (const [name, schema] of Object.entries(this.document.components.schemas)) {
      this.ajv.addSchema(closed(schema) as Schema, `#/components/schemas/${name}`);
    }
  }

  /** The validator of a documented JSON response (schemas closed to extra fields), or null. */
  validatorFor(method: string, path: string, status: number): ValidateFunction | null {
    const key = `${method} ${path} ${status}`;
    if (!this.validators.has(key)) {
      const schema =
        this.document.paths[path]?.[method]?.responses[String(status)]?.content?.[
          'application/json'
        ]?.schema;
      this.validators.set(key, schema ? this.ajv.compile(closed(schema) as Schema) : null);
    }
    return this.validators.get(key) ?? null;
  }
}

const publicApi = new DocumentSchemas('openapi.json');
/** The internal API's routes are checked against its own document, the console's client's. */
const internalApi = new DocumentSchemas('internal-openapi.json');
const schemasOf = (path: string) => (path.startsWith('/internal/') ? internalApi : publicApi);

export const ajv = publicApi.ajv;

/** The validator of a documented JSON response of the public API, or null. */
export function validatorFor(
  method: string,
  path: string,
  status: number,
): ValidateFunction | null {
  return publicApi.validatorFor(method, path, status);
}

/**
 * Mounted in every test app: each successful response of a documented operation is checked
 * against the checked-in openapi.json (internal-openapi.json for `/internal`). A mismatch turns the response into a 500, so the test
 * that received it fails, whichever test it is.
 */
@Injectable()
class ResponseValidator implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    return next.handle().pipe(
      map((result) => {
        const route = req.route?.path as string | undefined;
        if (!route) return result;
        const path = route.replace(/:(\w+)/g, '{$1}');
        const method = req.method.toLowerCase();
        const schemas = schemasOf(path);
        const operation = schemas.document.paths[path]?.[method];
        // Redirects (GET /openapi) have no body to check.
        if (
          !operation ||
          (result === undefined && Object.keys(operation.responses).some((s) => s.startsWith('3')))
        ) {
          return result;
        }
        const [status, body] =
          result instanceof HttpResult
            ? [result.status, result.body]
            : [
                this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ??
                  (method === 'post' ? 201 : 200),
                result,
              ];
        if (!(String(status) in operation.responses)) {
          throw new Error(
            `OpenAPI: ${method.toUpperCase()} ${path} documents no ${status} response`,
          );
        }
        const validate = schemas.validatorFor(method, path, status);
        if (validate && !validate(JSON.parse(JSON.stringify(body ?? null)))) {
          throw new Error(
            `OpenAPI: ${method.toUpperCase()} ${path} ${status} breaks the schema: ${schemas.ajv.errorsText(validate.errors)}`,
          );
        }
        return result;
      }),
    );
  }
}

@Module({ providers: [{ provide: APP_INTERCEPTOR, useClass: ResponseValidator }] })
export class ResponseValidationModule {}
