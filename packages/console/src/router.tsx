import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { caseRoutes } from './cases/routes';
import { keyRoutes } from './keys/routes';
import { homeRoute, rootRoute, signedInRoute } from './layout-routes';
import { organizationRoutes } from './organizations/routes';
import { overviewRoutes } from './overview/routes';
import { projectRoutes } from './projects/routes';
import { releaseRoutes } from './releases/routes';
import { resultRoutes } from './results/routes';
import { runRoutes } from './runs/routes';
import { searchRoutes } from './search/routes';
import { sessionRoutes } from './session/routes';
import { CONSOLE_BASE } from './shared/console-base';
import { webhookRoutes } from './webhooks/routes';

/** Each feature declares its pages' routes (`<feature>/routes.tsx`); this only gathers them. */
const routeTree = rootRoute.addChildren([
  ...sessionRoutes,
  signedInRoute.addChildren([
    homeRoute,
    ...organizationRoutes,
    ...projectRoutes,
    ...overviewRoutes,
    ...keyRoutes,
    ...runRoutes,
    ...resultRoutes,
    ...releaseRoutes,
    ...webhookRoutes,
    ...caseRoutes,
    ...searchRoutes,
  ]),
]);

export function createConsoleRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: CONSOLE_BASE,
    context: { queryClient },
    defaultPreload: false,
  });
}
