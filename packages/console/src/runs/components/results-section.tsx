import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { runResults, type ResultOrder, type ResultStatus } from '../api/runs';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { StatusFilter } from '../../shared/components/status-filter';
import { RESULT_ORDERS, type RunView } from '../run-view';
import { ConfigurationFilter } from './configuration-filter';
import { ResultsTable } from './results-table';
import { RESULT_STATUS_NAMES } from './run-counts';
import type { ReportedCase } from './run-actions';
import { SearchBox } from './search-box';

const RESULTS_PAGE_SIZE = 50;

/** The search parameters of a results view (the first page unless `offset`). */
function resultsSearch(view: {
  status?: ResultStatus;
  configuration?: string;
  q?: string;
  order?: ResultOrder;
}): Record<string, string> {
  return {
    ...(view.order ? { order: view.order } : {}),
    ...(view.status ? { status: view.status } : {}),
    // '' is a choice too: the results without a configuration.
    ...(view.configuration !== undefined ? { configuration: view.configuration } : {}),
    ...(view.q ? { q: view.q } : {}),
  };
}

/** In which configuration the listed results are, as an empty list names it. */
function inConfiguration(configuration: string | undefined): string {
  if (configuration === undefined) return '';
  return configuration === '' ? ' without a configuration' : ` in ${configuration}`;
}

/**
 * The results tab: a status filter, a configuration filter (when the run's results name
 * any), a search by title or automation id, the order (failures first unless asked), and the
 * table.
 */
export function ResultsSection({
  id,
  view,
  onReport,
}: {
  id: string;
  view: RunView;
  /** None: the run takes no results (it is completed), so no row offers to report one. */
  onReport?: (reported: ReportedCase) => void;
}) {
  const navigate = useNavigate();
  const { offset, status, configuration, q } = view;
  const order = view.order ?? 'failures_first';
  const results = useQuery(
    runResults(id, { limit: RESULTS_PAGE_SIZE, offset, status, configuration, q, order }),
  );
  const filter = resultsSearch(view);
  const described = (what: string) => (q ? `${what} matching “${q}”` : what);

  let table = listState(results, offset, {
    what: 'results',
    empty: (
      <p>
        {status || q || configuration !== undefined
          ? `No ${described(status ? `${RESULT_STATUS_NAMES[status].toLowerCase()} results` : 'results')}${inConfiguration(configuration)} in this run.`
          : 'No results yet. They appear here as the pipeline reports them.'}
      </p>
    ),
    pastLast: (
      <PastLast to="/runs/$runId" params={{ runId: id }} search={filter}>
        This page is past the last result.
      </PastLast>
    ),
  });
  if (table === null && results.isSuccess) {
    table = (
      <>
        <ResultsTable results={results.data.data} order={order} onReport={onReport} />
        <Pager
          pagination={results.data.pagination}
          to="/runs/$runId"
          params={{ runId: id }}
          search={filter}
        />
      </>
    );
  }

  return (
    <section aria-labelledby="results-title">
      <div className="page-head">
        <h2 id="results-title">Results</h2>
        <div className="filters">
          <SearchBox
            key={q ?? ''}
            value={q}
            onSearch={(next) =>
              void navigate({
                to: '/runs/$runId',
                params: { runId: id },
                search: resultsSearch({ status, configuration, q: next, order: view.order }),
              })
            }
          />
          <StatusFilter
            label="Status"
            value={status}
            names={RESULT_STATUS_NAMES}
            onChange={(next) =>
              void navigate({
                to: '/runs/$runId',
                params: { runId: id },
                search: resultsSearch({ status: next, configuration, q, order: view.order }),
              })
            }
          />
          <ConfigurationFilter
            runId={id}
            value={configuration}
            onChange={(next) =>
              void navigate({
                to: '/runs/$runId',
                params: { runId: id },
                search: resultsSearch({ status, configuration: next, q, order: view.order }),
              })
            }
          />
          <OrderChoice
            value={order}
            onChange={(next) =>
              void navigate({
                to: '/runs/$runId',
                params: { runId: id },
                search: resultsSearch({
                  status,
                  configuration,
                  q,
                  order: next === 'failures_first' ? undefined : next,
                }),
              })
            }
          />
        </div>
      </div>
      {table}
    </section>
  );
}

/** The results' order: failures first (the default) or newest first. */
function OrderChoice({
  value,
  onChange,
}: {
  value: ResultOrder;
  onChange: (order: ResultOrder) => void;
}) {
  return (
    <div className="filter">
      <label htmlFor="results-order">Order</label>
      <select
        id="results-order"
        value={value}
        onChange={(event) => onChange(event.target.value as ResultOrder)}
      >
        {(Object.keys(RESULT_ORDERS) as ResultOrder[]).map((o) => (
          <option key={o} value={o}>
            {RESULT_ORDERS[o]}
          </option>
        ))}
      </select>
    </div>
  );
}
