import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiTags } from '@nestjs/swagger';
import {
  CallerOrganizationId,
  Principal,
  RequireScopes,
  RouteCaller,
} from '../routes/access.decorators.js';
import type { ApiPrincipal } from '../routes/api-principal.js';
import { CreateRoute, DeleteRoute, ListRoute } from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { ShownOnce } from '../idempotency/shown-once.decorator.js';
import { ApiErrors } from '../common/openapi.decorators.js';
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

  @ListRoute('', WebhookResponse, 'Webhook subscriptions, newest first', {
    scopes: ['webhooks:manage'],
    errors: [400],
  })
  list(
    @CallerOrganizationId() organizationId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<WebhookResponse>> {
    return this.webhooks.list(organizationId, query);
  }

  @CreateRoute('', CreatedWebhookResponse, {
    scopes: ['webhooks:manage'],
    errors: [400, 409, 415, 422],
  })
  @ShownOnce('secret')
  create(
    @Principal() principal: ApiPrincipal,
    @Body() dto: CreateWebhookDto,
  ): Promise<CreatedWebhookResponse> {
    return this.webhooks.create(principal.organization, createWebhookCommand(dto));
  }

  @DeleteRoute(':id', 'Deleted; pending retries stop', {
    scopes: ['webhooks:manage'],
    errors: [404],
  })
  delete(@RouteCaller() caller: Caller, @PathId('webhook') id: string): Promise<void> {
    return this.webhooks.delete(caller, id);
  }

  @ListRoute(
    ':id/deliveries',
    DeliveryResponse,
    'Deliveries to this endpoint with their attempt logs, newest first',
    { scopes: ['webhooks:manage'], errors: [400, 404] },
  )
  deliveries(
    @RouteCaller() caller: Caller,
    @PathId('webhook') id: string,
    @Query() query: DeliveryQuery,
  ): Promise<Page<DeliveryResponse>> {
    return this.webhooks.listDeliveries(caller, id, query);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @RequireScopes('webhooks:manage')
  @HttpCode(202)
  @ApiAcceptedResponse({
    type: DeliveryResponse,
    description:
      'A new delivery of the same event; the one redelivered, if still `pending`, ends (`failed`, no more retries)',
  })
  @ApiErrors(404, 409, 422)
  redeliver(
    @RouteCaller() caller: Caller,
    @PathId('webhook') id: string,
    @PathId('delivery', 'deliveryId') deliveryId: string,
  ): Promise<DeliveryResponse> {
    return this.webhooks.redeliver(caller, id, deliveryId);
  }
}
