import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { flakyTests, type FlakyTest } from '../api/cases';
import { project } from '../../projects/api/projects';
import { ExportCsvLink } from '../../shared/components/export-csv-link';
import { Pager } from '../../shared/components/pager';
import { QuarantineDialog, UnquarantineDialog } from '../components/quarantine-dialogs';
import { ResultStatusBadge } from '../../runs/components/run-counts';
import { listState, PastLast } from '../../shared/components/states';
import { BackToRuns, ProjectPageHead } from '../../shared/components/page-head';
import { number, percentToTenths } from '../../shared/formats';

const FLAKY_PAGE_SIZE = 25;

/**
 * A project's flaky tests as the service lists them (most flaky first, CONTRACT §12), each
 * with its quarantine marker and the action to quarantine it or take it out.
 */
export function ProjectFlakyPage({ id, offset }: { id: string; offset: number }) {
  const current = useQuery(project(id));
  const page = useQuery(flakyTests(id, { limit: FLAKY_PAGE_SIZE, offset }));
  const [dialog, setDialog] = useState<{ test: FlakyTest; action: 'add' | 'remove' } | null>(null);

  let body = listState(page, offset, {
    what: 'flaky tests',
    missing: 'There is no such project.',
    empty: <p>No flaky tests: no test case flips between passed and failed in recent runs.</p>,
    pastLast: (
      <PastLast to="/projects/$projectId/flaky-tests" params={{ projectId: id }}>
        This page is past the last flaky test.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <table className="flaky">
          <caption className="visually-hidden">Flaky tests, most flaky first</caption>
          <thead>
            <tr>
              <th scope="col">Test case</th>
              <th scope="col" className="number">
                Flip rate
              </th>
              <th scope="col" className="number">
                Flips
              </th>
              <th scope="col" className="number">
                Runs
              </th>
              <th scope="col" className="number">
                Passed on retry
              </th>
              <th scope="col">Last status</th>
              <th scope="col">Quarantine</th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((test) => (
              <tr key={test.test_case_id}>
                <th scope="row">
                  <Link to="/cases/$caseId" params={{ caseId: test.test_case_id }}>
                    {test.title}
                  </Link>
                  {test.automation_id !== null && test.automation_id !== test.title ? (
                    <div className="automation-id">
                      <code>{test.automation_id}</code>
                    </div>
                  ) : null}
                </th>
                <td className="number">{percentToTenths.format(test.flip_rate)}</td>
                <td className="number">{number.format(test.flips)}</td>
                <td className="number">{number.format(test.executions)}</td>
                <td className="number">{number.format(test.retried_passes)}</td>
                <td>
                  <ResultStatusBadge status={test.last_status} />
                </td>
                <td className="quarantine-cell">
                  {test.quarantined ? (
                    <>
                      <span className="badge quarantined">Quarantined</span>{' '}
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Unquarantine ${test.title}`}
                        onClick={() => setDialog({ test, action: 'remove' })}
                      >
                        Unquarantine
                      </button>
                    </>
                  ) : (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Quarantine ${test.title}`}
                      onClick={() => setDialog({ test, action: 'add' })}
                    >
                      Quarantine
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager
          pagination={page.data.pagination}
          to="/projects/$projectId/flaky-tests"
          params={{ projectId: id }}
        />
      </>
    );
  }

  const target = dialog && {
    projectId: id,
    testCaseId: dialog.test.test_case_id,
    title: dialog.test.title,
  };
  return (
    <>
      <ProjectPageHead
        projectId={id}
        project={current.data}
        title="Flaky tests"
        back={<BackToRuns projectId={id} />}
        actions={
          <ExportCsvLink
            href={`/internal/v1/projects/${encodeURIComponent(id)}/flaky-tests/export`}
            what="every flaky test of the project"
          />
        }
      />
      <p className="muted">
        Test cases whose latest results flip between passed and failed, or pass only on retry.
      </p>
      {body}
      {dialog && target && dialog.action === 'add' ? (
        <QuarantineDialog target={target} current={null} onClose={() => setDialog(null)} />
      ) : null}
      {dialog && target && dialog.action === 'remove' ? (
        <UnquarantineDialog target={target} onClose={() => setDialog(null)} />
      ) : null}
    </>
  );
}
