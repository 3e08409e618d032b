import { useQuery } from '@tanstack/react-query';
import { gateSettings, project, retention, useUpdateGateSettings } from '../api/projects';
import { DefectUrlTemplateForm } from '../components/defect-url-template-form';
import { GateSettingsForm } from '../components/gate-settings-form';
import { RetentionForm } from '../components/retention-form';
import { BackToRuns, ProjectPageHead } from '../../shared/components/page-head';
import { readState } from '../../shared/components/states';

/**
 * A project's settings, a section each: its quality gate's (CONTRACT §12), how defect ids
 * link to the tracker, and how long its runs are kept.
 */
export function ProjectSettingsPage({ id }: { id: string }) {
  const current = useQuery(project(id));
  const gate = useQuery(gateSettings(id));
  const kept = useQuery(retention(id));
  // Here, not in the form: the form remounts with the saved settings, the outcome stays.
  const update = useUpdateGateSettings(id);
  return (
    <>
      <ProjectPageHead
        projectId={id}
        project={current.data}
        title="Settings"
        back={<BackToRuns projectId={id} />}
      />
      <section aria-labelledby="gate-settings-title">
        <h2 className="section" id="gate-settings-title">
          Quality gate
        </h2>
        <p className="muted">
          What a run needs to pass its quality gate, besides having no new failures outside
          quarantine.
        </p>
        {gate.isSuccess ? (
          // Remounted with what was saved, so the fields start from the stored values.
          <GateSettingsForm key={gate.data.updated_at} saved={gate.data} update={update} />
        ) : (
          readState(gate, { what: 'the gate settings', missing: 'There is no such project.' })
        )}
      </section>
      <section aria-labelledby="defect-links-title">
        <h2 className="section" id="defect-links-title">
          Defect links
        </h2>
        <p className="muted">
          Where a result's defect ids link to: a URL with <code>{'{id}'}</code>, such as
          https://jira.example.com/browse/{'{id}'}.
        </p>
        {current.isSuccess ? (
          <DefectUrlTemplateForm projectId={id} current={current.data.defect_url_template} />
        ) : (
          readState(current, { what: 'the project', missing: 'There is no such project.' })
        )}
      </section>
      <section aria-labelledby="retention-title">
        <h2 className="section" id="retention-title">
          Retention
        </h2>
        {kept.isSuccess ? (
          <RetentionForm projectId={id} current={kept.data.retention_days} />
        ) : (
          readState(kept, { what: 'the retention', missing: 'There is no such project.' })
        )}
      </section>
    </>
  );
}
