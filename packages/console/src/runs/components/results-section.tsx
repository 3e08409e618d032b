import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { runResults, type ResultStatus } from '../api/runs';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { StatusFilter } from '../../shared/components/status-filter';
import type { RunView } from '../run-view';
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
}): Record<string, string> {
  return {
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
 * any), a search by title or automation id, and the table.
 */
export function ResultsSection({
  id,
  view,
  onReport,
}: {
  id: string;
  view: RunView;
  onReport: (reported: ReportedCase) => void;
}) {
  const navigate = useNavigate();
  const { offset, status, configuration, q } = view;
  const results = useQuery(
    runResults(id, { limit: RESULTS_PAGE_SIZE, offset, status, configuration, q }),
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
        <ResultsTable results={results.data.data} onReport={onReport} />
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
                search: resultsSearch({ status, configuration, q: next }),
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
                search: resultsSearch({ status: next, configuration, q }),
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
                search: resultsSearch({ status, configuration: next, q }),
              })
            }
          />
        </div>
      </div>
      {table}
    </section>
  );
}
