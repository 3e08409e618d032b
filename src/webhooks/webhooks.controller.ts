import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Principal, RequireScopes } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { ParseIdPipe } from '../common/ids.js';
import { ShownOnce } from '../idempotency/shown-once.decorator.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { createWebhookCommand } from './dto/create-webhook.command.js';
import {
  CreatedWebhookResponse,
  CreateWebhookDto,
  DeliveryQuery,
  DeliveryResponse,
  WebhookResponse,
} from './dto/webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @RequireScopes('webhooks:manage')
  @ApiPageResponse(WebhookResponse, 'Webhook subscriptions, newest first')
  @ApiErrors(400)
  list(
    @Principal() principal: ApiPrincipal,
    @Query() query: PaginationQuery,
  ): Promise<Page<WebhookResponse>> {
    return this.webhooks.list(principal.organization.id, query);
  }

  @Post()
  @RequireScopes('webhooks:manage')
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  @ApiErrors(400, 409, 415, 422)
  @ShownOnce('secret')
  create(
    @Principal() principal: ApiPrincipal,
    @Body() dto: CreateWebhookDto,
  ): Promise<CreatedWebhookResponse> {
    return this.webhooks.create(principal.organization, createWebhookCommand(dto));
  }

  @Delete(':id')
  @RequireScopes('webhooks:manage')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted; pending retries stop' })
  @ApiErrors(404)
  delete(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('webhook')) id: string,
  ): Promise<void> {
    return this.webhooks.delete(principal.organization.id, id);
  }

  @Get(':id/deliveries')
  @RequireScopes('webhooks:manage')
  @ApiPageResponse(
    DeliveryResponse,
    'Deliveries to this endpoint with their attempt logs, newest first',
  )
  @ApiErrors(400, 404)
  deliveries(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('webhook')) id: string,
    @Query() query: DeliveryQuery,
  ): Promise<Page<DeliveryResponse>> {
    return this.webhooks.listDeliveries(principal.organization.id, id, query);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @RequireScopes('webhooks:manage')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: DeliveryResponse, description: 'A new delivery of the same event' })
  @ApiErrors(404, 409, 422)
  redeliver(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('webhook')) id: string,
    @Param('deliveryId', new ParseIdPipe('delivery')) deliveryId: string,
  ): Promise<DeliveryResponse> {
    return this.webhooks.redeliver(principal.organization.id, id, deliveryId);
  }
}
