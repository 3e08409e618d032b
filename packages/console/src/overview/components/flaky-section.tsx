import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { flakyTests } from '../../cases/api/cases';
import { LoadError, Loading } from '../../shared/components/states';
import { number, percentToTenths } from '../../shared/formats';

/** How many of the most flaky tests the overview names; the flaky tests page has them all. */
const MOST_FLAKY = 5;

/** The project's most flaky tests, as the flaky list ranks them (CONTRACT §12). */
export function FlakySection({ projectId }: { projectId: string }) {
  const flaky = useQuery(flakyTests(projectId, { limit: MOST_FLAKY, offset: 0 }));
  let body;
  if (flaky.isPending) body = <Loading what="the flaky tests" />;
  else if (flaky.isError)
    body = <LoadError error={flaky.error} onRetry={() => void flaky.refetch()} />;
  else if (flaky.data.data.length === 0) body = <p>No test is flaky in its latest runs.</p>;
  else
    body = (
      <>
        <table aria-labelledby="flaky-title">
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Flip rate</th>
              <th scope="col">Retried passes</th>
            </tr>
          </thead>
          <tbody>
            {flaky.data.data.map((test) => (
              <tr key={`${test.test_case_id}/${test.configuration ?? ''}`}>
                <th scope="row">
                  <Link to="/cases/$caseId" params={{ caseId: test.test_case_id }}>
                    {test.title}
                  </Link>
                  {test.configuration ? (
                    <span className="muted"> ({test.configuration})</span>
                  ) : null}
                  {test.quarantined ? <span className="badge quarantined">Quarantined</span> : null}
                </th>
                <td className="number">{percentToTenths.format(test.flip_rate)}</td>
                <td className="number">{number.format(test.retried_passes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Link to="/projects/$projectId/flaky-tests" params={{ projectId }}>
          All flaky tests ({number.format(flaky.data.pagination.total)})
        </Link>
      </>
    );
  return (
    <section className="overview-section" aria-labelledby="flaky-title">
      <h2 id="flaky-title">Most flaky tests</h2>
      {body}
    </section>
  );
}
