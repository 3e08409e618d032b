import { useState } from 'react';
import { ApiFailure } from '../../shared/api/client';
import { useChangeRunStatus, useSubmitResults, type ResultItem } from '../api/run-insights';
import type { ResultStatus, TestRun } from '../api/runs';
import { ConfirmDialog, FormDialog } from '../../shared/components/dialogs';
import { RESULT_STATUSES, RESULT_STATUS_NAMES } from './run-counts';

/** A case of the run chosen from its results table. */
export interface ReportedCase {
  id: string;
  title: string;
  automationId: string | null;
  /** The slot's configuration: the result reported replaces that slot's (null: none). */
  configuration: string | null;
}

/**
 * Submits one result into the run as the operator: for a case chosen in the table, or named by
 * its automation id (an unknown one creates the case, titled as given). The server checks it as
 * it checks a pipeline's, and its refusal shows in the dialog.
 */
export function SubmitResultDialog({
  runId,
  reported,
  onClose,
  onSubmitted,
}: {
  runId: string;
  reported: ReportedCase | null;
  onClose: () => void;
  onSubmitted: (notice: string) => void;
}) {
  const submit = useSubmitResults(runId);
  const [automationId, setAutomationId] = useState('');
  const [title, setTitle] = useState('');
  const [status, setStatus] = useState<ResultStatus>('passed');
  const [duration, setDuration] = useState('');
  const [message, setMessage] = useState('');
  const failedField = submit.error instanceof ApiFailure ? submit.error.field : undefined;
  const invalid = (field: string) => (failedField?.endsWith(field) ? true : undefined);

  const send = () => {
    const item: ResultItem = {
      status,
      ...(reported ? { test_case_id: reported.id } : { automation_id: automationId }),
      ...(reported?.configuration ? { configuration: reported.configuration } : {}),
      ...(!reported && title.trim() !== '' ? { title: title.trim() } : {}),
      ...(duration !== '' ? { duration_ms: Number(duration) } : {}),
      ...(message.trim() !== '' ? { message: message.trim() } : {}),
    };
    submit.mutate([item], {
      onSuccess: (answer) =>
        onSubmitted(
          answer.created_test_cases > 0
            ? 'Result submitted; its test case was created.'
            : 'Result submitted.',
        ),
    });
  };

  return (
    <FormDialog
      titleId="submit-result-title"
      title={
        reported
          ? `Report a result for “${reported.title}”${reported.configuration ? ` in ${reported.configuration}` : ''}`
          : 'Submit a result'
      }
      labelForm
      call={submit}
      action={{ label: 'Submit result', pending: 'Submitting…' }}
      onSubmit={send}
      onClose={onClose}
    >
      {reported ? null : (
        <>
          <label htmlFor="result-automation-id">Automation id</label>
          <input
            id="result-automation-id"
            name="automation_id"
            required
            maxLength={1000}
            value={automationId}
            onChange={(event) => setAutomationId(event.target.value)}
            aria-invalid={invalid('automation_id')}
            aria-describedby="result-automation-id-help"
            data-autofocus
          />
          <p id="result-automation-id-help" className="muted hint">
            The test case’s automation id; an unknown one creates the case.
          </p>
          <label htmlFor="result-title">Title (of a new test case)</label>
          <input
            id="result-title"
            name="title"
            maxLength={1000}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            aria-invalid={invalid('title')}
          />
        </>
      )}
      <label htmlFor="result-status">Status</label>
      <select
        id="result-status"
        name="status"
        value={status}
        onChange={(event) => setStatus(event.target.value as ResultStatus)}
        data-autofocus={reported ? true : undefined}
      >
        {RESULT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {RESULT_STATUS_NAMES[s]}
          </option>
        ))}
      </select>
      <label htmlFor="result-duration">Duration (ms)</label>
      <input
        id="result-duration"
        name="duration_ms"
        type="number"
        inputMode="numeric"
        value={duration}
        onChange={(event) => setDuration(event.target.value)}
        aria-invalid={invalid('duration_ms')}
      />
      <label htmlFor="result-message">Message</label>
      <input
        id="result-message"
        name="message"
        value={message}
        onChange={(event) => setMessage(event.target.value)}
        aria-invalid={invalid('message')}
      />
    </FormDialog>
  );
}

/** Completing the run, once confirmed; the server refuses a move it does not allow. */
export function CompleteRunDialog({
  run,
  onClose,
  onCompleted,
}: {
  run: TestRun;
  onClose: () => void;
  onCompleted: () => void;
}) {
  const change = useChangeRunStatus(run.id);
  return (
    <ConfirmDialog
      titleId="complete-run-title"
      title={`Complete the run “${run.name}”?`}
      call={change}
      action={{ label: 'Complete run', pending: 'Completing…' }}
      onConfirm={() => change.mutate('completed', { onSuccess: onCompleted })}
      onClose={onClose}
    >
      <p>A completed run takes no more results until it is reopened.</p>
    </ConfirmDialog>
  );
}

/**
 * Reopening a completed run, once confirmed: it takes results again (a CI job run again), and a
 * later completion judges it anew. The server refuses a move it does not allow.
 */
export function ReopenRunDialog({
  run,
  onClose,
  onReopened,
}: {
  run: TestRun;
  onClose: () => void;
  onReopened: () => void;
}) {
  const change = useChangeRunStatus(run.id);
  return (
    <ConfirmDialog
      titleId="reopen-run-title"
      title={`Reopen the run “${run.name}”?`}
      call={change}
      action={{ label: 'Reopen run', pending: 'Reopening…' }}
      onConfirm={() => change.mutate('in_progress', { onSuccess: onReopened })}
      onClose={onClose}
    >
      <p>
        The run takes results again. Completing it again compares it with its baseline and judges
        its quality gate anew.
      </p>
    </ConfirmDialog>
  );
}
