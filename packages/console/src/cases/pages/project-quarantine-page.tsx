import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { quarantinedCases, type QuarantinedCase } from '../api/cases';
import { project } from '../../projects/api/projects';
import { Pager } from '../../shared/components/pager';
import { quarantineExpiry, UnquarantineDialog } from '../components/quarantine-dialogs';
import { listState, PastLast } from '../../shared/components/states';
import { BackToRuns, ProjectPageHead } from '../../shared/components/page-head';
import { utcDay } from '../../shared/formats';

const QUARANTINE_PAGE_SIZE = 25;

/**
 * Every test case of the project in quarantine now, flaky or not (newest first, as the service
 * lists them), with its reason and expiry, and the action to take it out.
 */
export function ProjectQuarantinePage({ id, offset }: { id: string; offset: number }) {
  const current = useQuery(project(id));
  const page = useQuery(quarantinedCases(id, { limit: QUARANTINE_PAGE_SIZE, offset }));
  const [releasing, setReleasing] = useState<QuarantinedCase | null>(null);

  let body = listState(page, offset, {
    what: 'the quarantine',
    missing: 'There is no such project.',
    empty: <p>No test case is in quarantine.</p>,
    pastLast: (
      <PastLast to="/projects/$projectId/quarantine" params={{ projectId: id }}>
        This page is past the last test case in quarantine.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <table className="quarantine">
          <caption className="visually-hidden">Test cases in quarantine, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Test case</th>
              <th scope="col">Reason</th>
              <th scope="col">Ends</th>
              <th scope="col">Since (UTC)</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((entry) => (
              <tr key={entry.test_case_id}>
                <th scope="row">
                  <Link to="/cases/$caseId" params={{ caseId: entry.test_case_id }}>
                    {entry.title}
                  </Link>
                  {entry.flaky ? (
                    <span className="badge flaky" title="On the project’s flaky-tests list">
                      Flaky
                    </span>
                  ) : null}
                  {entry.automation_id !== null && entry.automation_id !== entry.title ? (
                    <div className="automation-id">
                      <code>{entry.automation_id}</code>
                    </div>
                  ) : null}
                </th>
                <td className="message">{entry.reason}</td>
                <td>{quarantineExpiry(entry)}</td>
                <td>{utcDay.format(new Date(entry.created_at))}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Unquarantine ${entry.title}`}
                    onClick={() => setReleasing(entry)}
                  >
                    Unquarantine
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager
          pagination={page.data.pagination}
          to="/projects/$projectId/quarantine"
          params={{ projectId: id }}
        />
      </>
    );
  }

  return (
    <>
      <ProjectPageHead
        projectId={id}
        project={current.data}
        title="Quarantine"
        back={<BackToRuns projectId={id} />}
      />
      <p className="muted">
        Test cases whose failures do not fail a run’s quality gate, flaky or quarantined for another
        cause.
      </p>
      {body}
      {releasing ? (
        <UnquarantineDialog
          target={{ projectId: id, testCaseId: releasing.test_case_id, title: releasing.title }}
          onClose={() => setReleasing(null)}
        />
      ) : null}
    </>
  );
}
