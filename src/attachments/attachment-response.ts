import type { AttachmentResponse, AttachmentUploadResponse } from './dto/attachment.dto.js';
import type { AttachmentRow } from './attachments.repository.js';

export function toAttachmentResponse(
  row: AttachmentRow,
  upload: AttachmentUploadResponse | null = null,
): AttachmentResponse {
  return {
    id: row.id,
    test_run_id: row.test_run_id,
    result_id: row.result_id,
    test_case_id: row.test_case_id,
    configuration: row.configuration === '' ? null : row.configuration,
    name: row.name,
    content_type: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
    status: row.status,
    upload,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
