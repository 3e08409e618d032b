import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { recurringFailures, type Series } from '../api/overview';
import { LoadError, Loading } from '../../shared/components/states';
import { number } from '../../shared/formats';
import { seriesName } from './trends-section';

/**
 * The causes of failure (signatures) seen in two or more of the series' latest runs, in the
 * most runs first: what keeps failing, rather than what failed once. Each opens the failures
 * of the latest run it failed in.
 */
export function RecurringFailuresSection({
  projectId,
  series,
}: {
  projectId: string;
  series: Series;
}) {
  const recurring = useQuery(recurringFailures(projectId, series));
  let body;
  if (recurring.isPending) body = <Loading what="the recurring failures" />;
  else if (recurring.isError)
    body = <LoadError error={recurring.error} onRetry={() => void recurring.refetch()} />;
  else {
    const { data, runs_read: read } = recurring.data;
    const window = `the last ${read === 1 ? 'run' : `${number.format(read)} runs`} of ${seriesName(series)}`;
    body =
      data.length === 0 ? (
        <p>No cause of failure recurs in {window}.</p>
      ) : (
        <>
          <p className="muted">Causes seen in two runs or more of {window}.</p>
          <table aria-labelledby="recurring-title">
            <thead>
              <tr>
                <th scope="col">Cause</th>
                <th scope="col">Runs</th>
                <th scope="col">Failures</th>
                <th scope="col">Tests</th>
              </tr>
            </thead>
            <tbody>
              {data.map((cause) => (
                <tr key={cause.signature} data-signature={cause.signature}>
                  <th scope="row" className="cause">
                    {cause.failure_type ? <code>{cause.failure_type}</code> : null}
                    <span className="message">{cause.message ?? 'No message'}</span>
                    <Link
                      to="/runs/$runId"
                      params={{ runId: cause.last_run_id }}
                      search={{ tab: 'failures' }}
                    >
                      {cause.in_latest_run ? 'In the latest run' : 'Last seen'}: its failures
                    </Link>
                  </th>
                  <td className="number">
                    {number.format(cause.runs)} of {number.format(read)}
                  </td>
                  <td className="number">{number.format(cause.failures)}</td>
                  <td className="number">{number.format(cause.cases)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      );
  }
  return (
    <section className="overview-section" aria-labelledby="recurring-title">
      <h2 id="recurring-title">Recurring failures</h2>
      {body}
    </section>
  );
}
