import { Body, Query } from '@nestjs/common';
import { PathId } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { ShownOnce } from '../idempotency/shown-once.decorator.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto.js';
import {
  CreateRoute,
  DeleteRoute,
  InternalController,
  ListRoute,
} from '../routes/route.decorators.js';

@InternalController()
export class ApiKeysInternalController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @CreateRoute('organizations/:id/api-keys', CreatedApiKeyResponse, {
    errors: [400, 404, 409, 415, 422],
  })
  @ShownOnce('key')
  create(
    @PathId('organization') organizationId: string,
    @Body() dto: CreateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    return this.apiKeys.create(organizationId, dto);
  }

  @ListRoute(
    'organizations/:id/api-keys',
    ApiKeyResponse,
    'The organization’s live keys, newest first (never the hash)',
    { errors: [400, 404] },
  )
  list(
    @PathId('organization') organizationId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<ApiKeyResponse>> {
    return this.apiKeys.list(organizationId, query);
  }

  @DeleteRoute('api-keys/:id', 'Deleted; the key stops working at once', { errors: [404] })
  delete(@PathId('api_key') id: string): Promise<void> {
    return this.apiKeys.delete(id);
  }
}
