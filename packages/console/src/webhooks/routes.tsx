import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { pageSearch } from '../shared/page-search';
import { OrganizationWebhooksPage } from './pages/organization-webhooks-page';
import { WebhookDeliveriesPage } from './pages/webhook-deliveries-page';

const organizationWebhooksRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'organizations/$organizationId/webhooks',
  validateSearch: pageSearch,
  component: function OrganizationWebhooksRoute() {
    const { organizationId } = organizationWebhooksRoute.useParams();
    const { offset } = organizationWebhooksRoute.useSearch();
    return <OrganizationWebhooksPage id={organizationId} offset={offset ?? 0} />;
  },
});

/** A subscription's delivery log: `?offset=` and the opened delivery, `?delivery=`. */
const webhookDeliveriesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'webhooks/$webhookId',
  validateSearch: (search: Record<string, unknown>): { offset?: number; delivery?: string } =>
    typeof search.delivery === 'string' && search.delivery !== ''
      ? { ...pageSearch(search), delivery: search.delivery }
      : pageSearch(search),
  component: function WebhookDeliveriesRoute() {
    const { webhookId } = webhookDeliveriesRoute.useParams();
    const { offset, delivery } = webhookDeliveriesRoute.useSearch();
    return (
      <WebhookDeliveriesPage
        key={webhookId}
        id={webhookId}
        offset={offset ?? 0}
        delivery={delivery}
      />
    );
  },
});

export const webhookRoutes = [organizationWebhooksRoute, webhookDeliveriesRoute];
