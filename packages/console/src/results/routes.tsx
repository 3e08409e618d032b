import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { ResultPage } from './pages/result-page';
import { SlotResultPage } from './pages/slot-result-page';

/** One result, by its id: the page a result row opens, and the link to share. */
const resultRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'results/$resultId',
  component: function ResultRoute() {
    const { resultId } = resultRoute.useParams();
    return <ResultPage key={resultId} id={resultId} />;
  },
});

/**
 * A case's current result in a run, for rows that name the case and not its result (a failure
 * group, a comparison): `?configuration=` picks the slot (empty: none; absent: any), and the
 * page goes on to the result's own.
 */
const slotResultRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'runs/$runId/cases/$caseId',
  validateSearch: (search: Record<string, unknown>): { configuration?: string } =>
    typeof search.configuration === 'string' && search.configuration.length <= 100
      ? { configuration: search.configuration.trim() }
      : {},
  component: function SlotResultRoute() {
    const { runId, caseId } = slotResultRoute.useParams();
    const { configuration } = slotResultRoute.useSearch();
    return <SlotResultPage runId={runId} caseId={caseId} configuration={configuration} />;
  },
});

export const resultRoutes = [resultRoute, slotResultRoute];
