import { useState } from 'react';
import { useQuarantine, useUnquarantine, type QuarantineEntry } from '../api/cases';
import { ApiFailure } from '../../shared/api/client';
import { ConfirmDialog, FormDialog } from '../../shared/components/dialogs';
import { utcDay, utcMinute } from '../../shared/formats';

/** The case a quarantine dialog is about. */
export interface QuarantineTarget {
  projectId: string;
  testCaseId: string;
  title: string;
}

/**
 * "Until the end of Feb 3, 2026 UTC" (the last day chosen, not the midnight after it, which
 * read as a day more) or "No expiry".
 */
export function quarantineExpiry(entry: QuarantineEntry): string {
  if (entry.expires_at === null) return 'No expiry';
  const end = new Date(entry.expires_at);
  return end.getTime() % 86_400_000 === 0
    ? `Until the end of ${utcDay.format(new Date(end.getTime() - 1))} UTC`
    : `Until ${utcMinute.format(end)} UTC`;
}

/** The entry in one line: reason, expiry and since when. */
export function QuarantineSummary({ entry }: { entry: QuarantineEntry }) {
  return (
    <>
      <span className="badge quarantined">Quarantined</span> {entry.reason}{' '}
      <span className="muted">
        ({quarantineExpiry(entry)}; since {utcDay.format(new Date(entry.created_at))})
      </span>
    </>
  );
}

/**
 * The moment a quarantine chosen to last through `date` (YYYY-MM-DD, a UTC day) ends: the
 * next midnight, UTC. Whether it may end then is the service's call.
 */
function endOfDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();
}

/** The UTC day a quarantine ending at `expiresAt` lasts through (the inverse of `endOfDay`). */
function lastDay(expiresAt: string): string {
  return new Date(Date.parse(expiresAt) - 1).toISOString().slice(0, 10);
}

/** A reason and an optional last day; the service answers with the entry or its refusal. */
export function QuarantineDialog({
  target,
  current,
  onClose,
}: {
  target: QuarantineTarget;
  current: QuarantineEntry | null;
  onClose: () => void;
}) {
  const [reason, setReason] = useState(current?.reason ?? '');
  const [until, setUntil] = useState(current?.expires_at ? lastDay(current.expires_at) : '');
  const quarantine = useQuarantine(target.projectId);
  const failedField = quarantine.error instanceof ApiFailure ? quarantine.error.field : undefined;
  const submit = () =>
    quarantine.mutate(
      {
        testCaseId: target.testCaseId,
        body: { reason, expires_at: until === '' ? null : endOfDay(until) },
      },
      { onSuccess: onClose },
    );
  return (
    <FormDialog
      titleId="quarantine-title"
      title={`Quarantine “${target.title}”`}
      intro={
        <p className="muted">While in quarantine, its failures do not fail a run’s quality gate.</p>
      }
      call={quarantine}
      action={{ label: 'Quarantine', pending: 'Saving…' }}
      onSubmit={submit}
      onClose={onClose}
    >
      <label htmlFor="quarantine-reason">Reason</label>
      <input
        id="quarantine-reason"
        name="reason"
        required
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        aria-invalid={failedField === 'reason' || undefined}
        data-autofocus
      />
      <label htmlFor="quarantine-until">Last day (UTC, optional)</label>
      <input
        id="quarantine-until"
        name="until"
        type="date"
        value={until}
        onChange={(event) => setUntil(event.target.value)}
        aria-invalid={failedField === 'expires_at' || undefined}
        aria-describedby="quarantine-until-hint"
      />
      <p id="quarantine-until-hint" className="muted hint">
        The quarantine ends at the end of that day. Leave empty to keep it until taken out.
      </p>
    </FormDialog>
  );
}

/** Taking a case out of quarantine, once confirmed. */
export function UnquarantineDialog({
  target,
  onClose,
}: {
  target: QuarantineTarget;
  onClose: () => void;
}) {
  const release = useUnquarantine(target.projectId);
  return (
    <ConfirmDialog
      titleId="unquarantine-title"
      title={`Take “${target.title}” out of quarantine?`}
      call={release}
      action={{ label: 'Take out of quarantine', pending: 'Saving…' }}
      onConfirm={() => release.mutate(target.testCaseId, { onSuccess: onClose })}
      onClose={onClose}
    >
      <p>Its failures will fail a run’s quality gate again.</p>
    </ConfirmDialog>
  );
}
