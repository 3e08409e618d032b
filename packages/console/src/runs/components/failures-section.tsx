import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { runFailures } from '../api/run-insights';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { number } from '../../shared/formats';

const FAILURE_GROUPS_PAGE_SIZE = 20;

/** The failures tab: failed and blocked results grouped by signature, largest group first. */
export function FailuresSection({ runId, offset }: { runId: string; offset: number }) {
  const groups = useQuery(runFailures(runId, { limit: FAILURE_GROUPS_PAGE_SIZE, offset }));
  let body = listState(groups, offset, {
    what: 'failures',
    empty: <p>No failed or blocked results in this run.</p>,
    pastLast: (
      <PastLast to="/runs/$runId" params={{ runId }} search={{ tab: 'failures' }}>
        This page is past the last group.
      </PastLast>
    ),
  });
  if (body === null && groups.isSuccess) {
    body = (
      <>
        <ol className="failure-groups">
          {groups.data.data.map((group) => {
            const shown = group.test_cases.length;
            return (
              <li key={group.signature ?? 'none'} className="card failure-group">
                <h3>
                  <span className="count">{number.format(group.count)}</span>{' '}
                  {group.count === 1 ? 'failure' : 'failures'}
                  {group.failure_type ? (
                    <>
                      {' '}
                      of <code>{group.failure_type}</code>
                    </>
                  ) : null}
                </h3>
                <p className="message">
                  {group.message ?? <span className="muted">No message</span>}
                </p>
                <p className="muted signature">
                  Signature <code>{group.signature ?? 'none'}</code>
                </p>
                <ul className="group-cases" aria-label="Cases">
                  {group.test_cases.map((c) => (
                    <li key={c.id}>
                      <Link to="/results/$resultId" params={{ resultId: c.result_id }}>
                        {c.title}
                      </Link>
                      {c.automation_id !== null && c.automation_id !== c.title ? (
                        <>
                          {' '}
                          <code className="automation-id">{c.automation_id}</code>
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
                {group.count > shown ? (
                  <p className="muted">and {number.format(group.count - shown)} more</p>
                ) : null}
              </li>
            );
          })}
        </ol>
        <Pager
          pagination={groups.data.pagination}
          to="/runs/$runId"
          params={{ runId }}
          search={{ tab: 'failures' }}
        />
      </>
    );
  }
  return (
    <section aria-labelledby="failures-title">
      <h2 id="failures-title">Failures by cause</h2>
      {body}
    </section>
  );
}
