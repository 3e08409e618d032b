import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import { ParseIdPipe } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { ShownOnce } from '../idempotency/shown-once.decorator.js';
import { InternalApi } from './access.decorators.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto.js';

@ApiTags('internal')
@InternalApi()
@Controller('internal/v1')
export class ApiKeysInternalController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post('organizations/:id/api-keys')
  @ApiErrors(400, 404, 409, 415, 422)
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ShownOnce('key')
  create(
    @Param('id', new ParseIdPipe('organization')) organizationId: string,
    @Body() dto: CreateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    return this.apiKeys.create(organizationId, dto);
  }

  @Get('organizations/:id/api-keys')
  @ApiErrors(400, 404)
  @ApiPageResponse(ApiKeyResponse, 'The organization’s live keys, newest first (never the hash)')
  list(
    @Param('id', new ParseIdPipe('organization')) organizationId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<ApiKeyResponse>> {
    return this.apiKeys.list(organizationId, query);
  }

  @Delete('api-keys/:id')
  @ApiErrors(404)
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted; the key stops working at once' })
  delete(@Param('id', new ParseIdPipe('api_key')) id: string): Promise<void> {
    return this.apiKeys.delete(id);
  }
}
