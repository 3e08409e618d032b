import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AnyApiKey, Public } from '../routes/access.decorators.js';
import { OpenApiDocument } from './openapi-document.provider.js';

@ApiTags('discovery')
@Controller()
export class OpenApiController {
  constructor(private readonly document: OpenApiDocument) {}

  @Get('openapi')
  @Public()
  @ApiResponse({
    status: 308,
    description: 'Redirect to /api/v1/openapi.json (no authentication needed)',
    headers: { Location: { description: '/api/v1/openapi.json', schema: { type: 'string' } } },
  })
  @Redirect('/api/v1/openapi.json', 308)
  redirect(): void {}

  @Get('openapi.json')
  @AnyApiKey()
  @ApiOkResponse({
    description: 'This document (OpenAPI 3)',
    schema: { type: 'object', additionalProperties: true },
  })
  get(): object {
    return this.document.get();
  }
}
