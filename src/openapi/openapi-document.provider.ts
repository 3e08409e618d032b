import { Injectable, type INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApiDocument } from './openapi.document.js';

/** Holds the document, built once from the initialized application. */
@Injectable()
export class OpenApiDocument {
  private document: OpenAPIObject | null = null;

  build(app: INestApplication): void {
    this.document = buildOpenApiDocument(app);
  }

  get(): OpenAPIObject {
    if (!this.document) throw new Error('The OpenAPI document was not built at start-up');
    return this.document;
  }
}
