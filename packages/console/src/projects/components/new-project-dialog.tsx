import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiFailure } from '../../shared/api/client';
import { useCreateProject } from '../api/projects';
import { FormDialog } from '../../shared/components/dialogs';

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

  const submit = () =>
    create.mutate(
      { name, key, ...(description ? { description } : {}) },
      {
        onSuccess: (made) =>
          void navigate({ to: '/projects/$projectId', params: { projectId: made.id } }),
      },
    );

  return (
    <FormDialog
      titleId="new-project-title"
      title="New project"
      call={create}
      action={{ label: 'Create project', pending: 'Creating…' }}
      onSubmit={submit}
      onClose={onClose}
    >
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
    </FormDialog>
  );
}
