import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';

export type Webhook = components['schemas']['WebhookResponse'];
export type Delivery = components['schemas']['DeliveryResponse'];
export type Attempt = components['schemas']['AttemptResponse'];
export type CreateWebhook = components['schemas']['CreateWebhookFieldsDto'];
export type WebhookEvent = CreateWebhook['events'][number];

const WEBHOOKS = 'webhooks';

/**
 * The event types a subscription can name, and `*` (all of them), in the order the service
 * declares them: read at build time from internal-openapi.json (vite.config.ts).
 */
export const WEBHOOK_EVENTS = __WEBHOOK_EVENTS__ as readonly WebhookEvent[];

/** An organization's subscriptions, newest first (never their secrets). */
export const organizationWebhooks = (
  organizationId: string,
  page: { limit: number; offset: number },
) =>
  queryOptions({
    queryKey: [WEBHOOKS, 'of-organization', organizationId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/organizations/{id}/webhooks', {
          params: { path: { id: organizationId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** One subscription, with the organization it belongs to. */
export const webhook = (id: string) =>
  queryOptions({
    queryKey: [WEBHOOKS, 'one', id],
    queryFn: () => unwrap(api.GET('/internal/v1/webhooks/{id}', { params: { path: { id } } })),
  });

/** A subscription's deliveries with their attempt logs, newest first. */
export const webhookDeliveries = (id: string, page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: [WEBHOOKS, 'deliveries', id, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/webhooks/{id}/deliveries', {
          params: { path: { id }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/**
 * Creates a subscription. Its signing secret goes to `onSecret` (the dialog that shows it once)
 * and is left out of the mutation's result, so it never lands in TanStack Query's cache.
 */
export function useCreateWebhook(
  organizationId: string,
  onSecret: (secret: string, url: string) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateWebhook): Promise<Webhook> => {
      const { secret, ...created } = await unwrap(
        api.POST('/internal/v1/organizations/{id}/webhooks', {
          params: { path: { id: organizationId } },
          body,
        }),
      );
      if (secret) onSecret(secret, created.url);
      return created;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [WEBHOOKS] }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/internal/v1/webhooks/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [WEBHOOKS] }),
  });
}

/** Switches a subscription on (after its receiver answered 410 Gone, say) or off. */
export function useSetWebhookActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      unwrap(
        api.PATCH('/internal/v1/webhooks/{id}', { params: { path: { id } }, body: { active } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [WEBHOOKS] }),
  });
}

/** A new delivery of a delivery's event; the log is read again to show it. */
export function useRedeliver(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        api.POST('/internal/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id: webhookId, deliveryId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [WEBHOOKS, 'deliveries'] }),
  });
}
