import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { project } from '../../projects/api/projects';
import { DefectUrlTemplateDialog } from '../../projects/components/defect-url-template-dialog';
import { ResultAttempts } from '../../runs/components/result-attempts';
import { ResultStatusBadge } from '../../runs/components/run-counts';
import { BackToOrganizations } from '../../shared/components/page-head';
import { readState } from '../../shared/components/states';
import { resultDetail, type ResultDetail } from '../api/result-detail';
import { AttachmentsSection } from '../components/attachments-section';
import { DefectList } from '../components/defect-list';
import { ResultFacts } from '../components/result-facts';
import { StackTrace } from '../components/stack-trace';

/**
 * One result, with what explains it: the message, the failure's type and stack trace, what the
 * pipeline attached (screenshots, videos, logs, traces), every attempt, the defects (linked
 * through the project's template), where and on what it ran, and the way to its test's history.
 */
export function ResultPage({ id }: { id: string }) {
  const detail = useQuery(resultDetail(id));
  if (!detail.isSuccess) {
    return readState(detail, {
      what: 'the result',
      missing: 'There is no such result.',
      back: <BackToOrganizations />,
    });
  }
  const r = detail.data;
  const named = `${r.test_case_title}${r.configuration === null ? '' : ` in ${r.configuration}`}`;
  return (
    <>
      <p>
        <Link to="/runs/$runId" params={{ runId: r.test_run_id }}>
          ← {r.test_run_name}
        </Link>
      </p>
      <div className="page-head">
        <h1>
          {r.test_case_title} <ResultStatusBadge status={r.status} />
        </h1>
        <Link to="/cases/$caseId" params={{ caseId: r.test_case_id }}>
          History of this test
        </Link>
      </div>
      {r.automation_id !== null && r.automation_id !== r.test_case_title ? (
        <p className="automation-id">
          <code>{r.automation_id}</code>
        </p>
      ) : null}
      <Markers result={r} />
      <ResultFacts result={r} />
      <section aria-labelledby="failure-title" className="result-failure">
        <h2 id="failure-title" className="section">
          Message
        </h2>
        {r.failure_type !== null ? (
          <p>
            Failure type <code data-field="failure-type">{r.failure_type}</code>
          </p>
        ) : null}
        {r.message !== null ? (
          <p className="message" data-field="message">
            {r.message}
          </p>
        ) : (
          <p className="muted">No message.</p>
        )}
        <h3>Stack trace</h3>
        {r.stack_trace !== null ? (
          <StackTrace trace={r.stack_trace} label={`Stack trace of ${named}`} />
        ) : (
          <p className="muted">No stack trace.</p>
        )}
      </section>
      <AttachmentsSection resultId={r.id} />
      <section aria-labelledby="attempts-title">
        <h2 id="attempts-title" className="section">
          Attempts
        </h2>
        {r.attempts.length === 0 ? (
          <p className="muted">One attempt: this result is the only one of its execution.</p>
        ) : (
          <ResultAttempts result={r} named={named} />
        )}
      </section>
      <DefectsSection result={r} />
    </>
  );
}

/** Flaky: this result passed after retries, or its case is on the flaky list; quarantined. */
function Markers({ result }: { result: ResultDetail }) {
  if (!result.flaky && !result.case_flaky && !result.quarantined) return null;
  return (
    <p>
      {result.flaky ? <span className="badge flaky">Passed after failed attempts</span> : null}
      {result.case_flaky ? <span className="badge flaky">On the flaky-tests list</span> : null}
      {result.quarantined ? <span className="badge quarantined">Quarantined</span> : null}
    </p>
  );
}

/** The defects, and where the project says they live (changed here, in a dialog). */
function DefectsSection({ result }: { result: ResultDetail }) {
  const [editing, setEditing] = useState(false);
  const owner = useQuery(project(result.project_id));
  const template = owner.data?.defect_url_template ?? null;
  return (
    <section aria-labelledby="defects-title">
      <h2 id="defects-title" className="section">
        Defects
      </h2>
      {result.defect_links.length === 0 ? (
        <p className="muted">No defects reported with this result.</p>
      ) : (
        <DefectList defects={result.defect_links} />
      )}
      {owner.isSuccess ? (
        <p className="muted">
          {template === null ? 'Defect ids link nowhere yet.' : <>Defect ids link to {template}.</>}{' '}
          <button type="button" className="secondary small" onClick={() => setEditing(true)}>
            {template === null ? 'Set defect links' : 'Change defect links'}
          </button>
        </p>
      ) : null}
      {editing ? (
        <DefectUrlTemplateDialog
          projectId={result.project_id}
          current={template}
          onClose={() => setEditing(false)}
        />
      ) : null}
    </section>
  );
}
