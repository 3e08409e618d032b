import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ApiFailure } from '../api/client';
import { useCreateProject } from '../api/projects';
import { Modal } from '../components/modal';

/**
 * A project's name, key and description in a dialog; once the service creates it, its page
 * opens. What a key may be, and that it is unique, is the service's rule: its refusal shows here.
 */
export function NewProjectDialog({
  organizationId,
  onClose,
}: {
  organizationId: string;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const create = useCreateProject(organizationId);
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [description, setDescription] = useState('');
  const failedField = create.error instanceof ApiFailure ? create.error.field : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, key, ...(description ? { description } : {}) },
      {
        onSuccess: (made) =>
          void navigate({ to: '/projects/$projectId', params: { projectId: made.id } }),
      },
    );
  };

  return (
    <Modal labelledBy="new-project-title" onClose={onClose}>
      <h2 id="new-project-title">New project</h2>
      <form onSubmit={submit} className="form">
        <label htmlFor="project-name">Name</label>
        <input
          id="project-name"
          name="name"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={failedField === 'name' || undefined}
          data-autofocus
        />
        <label htmlFor="project-key">Key</label>
        <input
          id="project-key"
          name="key"
          required
          value={key}
          onChange={(event) => setKey(event.target.value)}
          aria-invalid={
            failedField === 'key' ||
            (create.error instanceof ApiFailure && create.error.status === 409) ||
            undefined
          }
          aria-describedby="project-key-hint"
        />
        <p id="project-key-hint" className="hint muted">
          A short code for the project, unique in the organization (e.g. WEB).
        </p>
        <label htmlFor="project-description">Description (optional)</label>
        <textarea
          id="project-description"
          name="description"
          rows={3}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        {create.error ? (
          <p className="form-error" role="alert">
            {create.error.message}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create project'}
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
