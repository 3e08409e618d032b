import { Modal } from '../../shared/components/modal';
import { DefectUrlTemplateForm } from './defect-url-template-form';

/** The project's defect URL template, changed in a dialog from where its defects are shown. */
export function DefectUrlTemplateDialog({
  projectId,
  current,
  onClose,
}: {
  projectId: string;
  current: string | null;
  onClose: () => void;
}) {
  return (
    <Modal labelledBy="defect-links-title" onClose={onClose}>
      <h2 id="defect-links-title">Defect links of this project</h2>
      <DefectUrlTemplateForm
        projectId={projectId}
        current={current}
        onSaved={onClose}
        onCancel={onClose}
      />
    </Modal>
  );
}
