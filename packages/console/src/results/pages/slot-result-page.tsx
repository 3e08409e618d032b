import { useQuery } from '@tanstack/react-query';
import { Link, Navigate } from '@tanstack/react-router';
import { readState } from '../../shared/components/states';
import { slotResults } from '../api/result-detail';

/**
 * The current result of a case in a run: opens the result's page at once (the URL becomes the
 * result's own); a case that ran in several configurations offers each.
 */
export function SlotResultPage({
  runId,
  caseId,
  configuration,
}: {
  runId: string;
  caseId: string;
  configuration?: string;
}) {
  const slots = useQuery(slotResults(runId, caseId, configuration));
  const back = (
    <Link to="/runs/$runId" params={{ runId }}>
      ← Test run
    </Link>
  );
  if (!slots.isSuccess) {
    return readState(slots, { what: 'the result', missing: 'There is no such run.', back });
  }
  const results = slots.data.data;
  if (results.length === 1) {
    return <Navigate to="/results/$resultId" params={{ resultId: results[0].id }} replace />;
  }
  return (
    <>
      <p>{back}</p>
      <h1>{results[0]?.test_case_title ?? 'Result'}</h1>
      {results.length === 0 ? (
        <p role="alert">This run has no result of this test case.</p>
      ) : (
        <>
          <p>This test ran in {results.length} configurations in this run. Open one:</p>
          <ul>
            {results.map((r) => (
              <li key={r.id}>
                <Link to="/results/$resultId" params={{ resultId: r.id }}>
                  {r.configuration ?? 'No configuration'}
                </Link>{' '}
                ({r.status})
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
