import { useState, type FormEvent } from 'react';
import { ApiFailure } from '../../shared/api/client';
import {
  useUpdateRelease,
  type Release,
  type ReleaseStatus,
  type UpdateRelease,
} from '../api/releases';
import { RELEASE_STATUS_NAMES } from './release-progress';
import { FormError } from '../../shared/components/form-error';

/**
 * Name, version, target date and status; only what changed is sent. Which status changes are
 * allowed is the service's rule: its refusal shows here.
 */
export function EditReleaseForm({
  editing,
  update,
}: {
  editing: Release;
  update: ReturnType<typeof useUpdateRelease>;
}) {
  const [name, setName] = useState(editing.name);
  const [version, setVersion] = useState(editing.version ?? '');
  const [targetDate, setTargetDate] = useState(editing.target_date ?? '');
  const [status, setStatus] = useState<ReleaseStatus>(editing.status);
  const failedField = update.error instanceof ApiFailure ? update.error.field : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: UpdateRelease = {};
    if (name !== editing.name) changes.name = name;
    if (version !== (editing.version ?? '')) changes.version = version;
    if (targetDate !== (editing.target_date ?? '')) changes.target_date = targetDate;
    if (status !== editing.status) changes.status = status;
    update.mutate(changes);
  };

  return (
    <form onSubmit={submit} className="card form" aria-labelledby="edit-release">
      <label htmlFor="edit-release-name">Name</label>
      <input
        id="edit-release-name"
        name="name"
        required
        value={name}
        onChange={(event) => setName(event.target.value)}
        aria-invalid={failedField === 'name' || undefined}
      />
      <label htmlFor="edit-release-version">Version</label>
      <input
        id="edit-release-version"
        name="version"
        value={version}
        onChange={(event) => setVersion(event.target.value)}
        aria-invalid={failedField === 'version' || undefined}
      />
      <label htmlFor="edit-release-target">Target date</label>
      <input
        id="edit-release-target"
        name="target_date"
        type="date"
        value={targetDate}
        onChange={(event) => setTargetDate(event.target.value)}
        aria-invalid={failedField === 'target_date' || undefined}
      />
      <label htmlFor="edit-release-status">Status</label>
      <select
        id="edit-release-status"
        name="status"
        value={status}
        onChange={(event) => setStatus(event.target.value as ReleaseStatus)}
      >
        {Object.entries(RELEASE_STATUS_NAMES).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <FormError error={update.error} />
      {update.isSuccess ? (
        <p role="status" className="muted">
          Saved.
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}
