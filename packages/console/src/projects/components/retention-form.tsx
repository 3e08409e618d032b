import { useState, type FormEvent } from 'react';
import { useSetRetention } from '../api/projects';
import { ApiFailure } from '../../shared/api/client';
import { FormFooter } from '../../shared/components/form-footer';

/**
 * How long the project keeps its runs: a number of days, or every run when empty. The worker
 * deletes older runs with their results and attachments within the hour; the service checks
 * the number (1 to 3,650) and its refusal shows here.
 */
export function RetentionForm({
  projectId,
  current,
}: {
  projectId: string;
  current: number | null;
}) {
  const [days, setDays] = useState(current === null ? '' : String(current));
  const save = useSetRetention(projectId);
  const refused = save.error instanceof ApiFailure && save.error.field === 'retention_days';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = days.trim();
    // What is not a number goes as typed, for the service to refuse with its reason (JSON would
    // turn NaN into null, which means every run).
    const number = Number(trimmed);
    save.mutate(trimmed === '' ? null : Number.isFinite(number) ? number : trimmed);
  };
  return (
    <form onSubmit={submit} className="form" aria-label="Retention">
      <label htmlFor="retention-days">Keep runs for (days)</label>
      <input
        id="retention-days"
        name="retention_days"
        type="text"
        inputMode="numeric"
        placeholder="every run"
        value={days}
        onChange={(event) => setDays(event.target.value)}
        aria-invalid={refused || undefined}
        aria-describedby="retention-days-hint"
      />
      <p id="retention-days-hint" className="muted hint">
        Runs older than this are deleted with their results and attachments; test cases, their
        quarantine, builds and releases stay. Leave empty to keep every run.
      </p>
      {save.isSuccess ? (
        <p role="status" className="muted">
          Saved.
        </p>
      ) : null}
      <FormFooter call={save} action={{ label: 'Save retention', pending: 'Saving…' }} />
    </form>
  );
}
