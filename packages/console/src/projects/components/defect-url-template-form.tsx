import { useState, type FormEvent } from 'react';
import { useSetDefectUrlTemplate } from '../api/projects';
import { ApiFailure } from '../../shared/api/client';
import { FormFooter } from '../../shared/components/form-footer';

/**
 * Where a project's defects live: a URL with `{id}`, which each defect id of a result replaces
 * to link it. Empty clears it. The service checks the template (http or https, with `{id}`) and
 * its refusal shows here. A settings page or a dialog hosts it.
 */
export function DefectUrlTemplateForm({
  projectId,
  current,
  onSaved,
  onCancel,
}: {
  projectId: string;
  current: string | null;
  onSaved?: () => void;
  onCancel?: () => void;
}) {
  const [template, setTemplate] = useState(current ?? '');
  const save = useSetDefectUrlTemplate(projectId);
  const refused = save.error instanceof ApiFailure && save.error.field === 'defect_url_template';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = template.trim();
    save.mutate(trimmed === '' ? null : trimmed, { onSuccess: onSaved });
  };
  return (
    <form onSubmit={submit} className="form" aria-label="Defect links">
      <label htmlFor="defect-url-template">Defect URL template</label>
      <input
        id="defect-url-template"
        name="defect_url_template"
        type="text"
        inputMode="url"
        spellCheck={false}
        placeholder="https://jira.example.com/browse/{id}"
        value={template}
        onChange={(event) => setTemplate(event.target.value)}
        aria-invalid={refused || undefined}
        aria-describedby="defect-url-template-hint"
        data-autofocus
      />
      <p id="defect-url-template-hint" className="muted hint">
        An http or https address with <code>{'{id}'}</code> where a defect’s id goes. Leave empty to
        show defect ids without links.
      </p>
      {save.isSuccess && onSaved === undefined ? (
        <p role="status" className="muted">
          Saved.
        </p>
      ) : null}
      <FormFooter call={save} action={{ label: 'Save', pending: 'Saving…' }} onCancel={onCancel} />
    </form>
  );
}
