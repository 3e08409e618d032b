import { Body, HttpCode, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse } from '@nestjs/swagger';
import { RouteCaller } from '../routes/access.decorators.js';
import {
  CreateRoute,
  DeleteRoute,
  InternalController,
  ListRoute,
  ReadRoute,
  UpdateRoute,
} from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { ShownOnce } from '../idempotency/shown-once.decorator.js';
import { createWebhookCommand } from './dto/create-webhook.command.js';
import {
  CreatedWebhookResponse,
  CreateWebhookFieldsDto,
  DeliveryQuery,
  DeliveryResponse,
  InternalWebhookResponse,
  UpdateWebhookDto,
  WebhookResponse,
} from './dto/webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';

/** An organization's webhook subscriptions and their delivery logs, for the console. */
@InternalController()
export class WebhooksInternalController {
  constructor(private readonly webhooks: WebhooksService) {}

  @ListRoute(
    'organizations/:id/webhooks',
    WebhookResponse,
    'The organization’s webhook subscriptions, newest first (never their secrets)',
    { errors: [400, 404] },
  )
  list(
    @PathId('organization') organizationId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<WebhookResponse>> {
    return this.webhooks.listInOrganization(organizationId, query);
  }

  @CreateRoute('organizations/:id/webhooks', CreatedWebhookResponse, {
    errors: [400, 404, 409, 415, 422],
  })
  @ShownOnce('secret')
  create(
    @PathId('organization') organizationId: string,
    @Body() dto: CreateWebhookFieldsDto,
  ): Promise<CreatedWebhookResponse> {
    return this.webhooks.createInOrganization(organizationId, createWebhookCommand(dto));
  }

  @ReadRoute('webhooks/:id', InternalWebhookResponse, { errors: [404] })
  get(
    @RouteCaller() caller: Caller,
    @PathId('webhook') id: string,
  ): Promise<InternalWebhookResponse> {
    return this.webhooks.get(caller, id);
  }

  @UpdateRoute('webhooks/:id', WebhookResponse, { errors: [400, 404, 415] })
  update(
    @RouteCaller() caller: Caller,
    @PathId('webhook') id: string,
    @Body() dto: UpdateWebhookDto,
  ): Promise<WebhookResponse> {
    return this.webhooks.setActive(caller, id, dto.active);
  }

  @DeleteRoute('webhooks/:id', 'Deleted; pending retries stop', { errors: [404] })
  delete(@RouteCaller() caller: Caller, @PathId('webhook') id: string): Promise<void> {
    return this.webhooks.delete(caller, id);
  }

  @ListRoute(
    'webhooks/:id/deliveries',
    DeliveryResponse,
    'Deliveries to this endpoint with their attempt logs, newest first',
    { errors: [400, 404] },
  )
  deliveries(
    @RouteCaller() caller: Caller,
    @PathId('webhook') id: string,
    @Query() query: DeliveryQuery,
  ): Promise<Page<DeliveryResponse>> {
    return this.webhooks.listDeliveries(caller, id, query);
  }

  @Post('webhooks/:id/deliveries/:deliveryId/redeliver')
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
