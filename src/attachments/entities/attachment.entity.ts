import { Column, Entity, Index, type Relation } from 'typeorm';
import { ChangingTenantRow, References, Uuid, Varchar } from '../../database/columns.js';
import { TestRun } from '../../testruns/entities/test-run.entity.js';

export const ATTACHMENT_STATUSES = ['pending', 'stored'] as const;
export type AttachmentStatus = (typeof ATTACHMENT_STATUSES)[number];

/**
 * A screenshot, video, trace or log of one result (CONTRACT §15): the result that was its
 * slot's current one when it was attached. Its bytes are content kept once per organization,
 * under a key made of the organization, `sha256` and `size` (`contentKey`): attachments of the
 * same bytes share them, and the content goes with the last of them.
 */
@Entity('attachment')
@Index('IDX_attachment_content', ['organizationId', 'sha256', 'size'])
@Index('IDX_attachment_result', ['resultId', 'createdAt'])
@Index('IDX_attachment_run', ['testRunId'])
@Index('IDX_attachment_created', ['createdAt'])
export class Attachment extends ChangingTenantRow {
  /** Its run; deleting the run deletes its attachments' rows (the content goes by retention). */
  @Uuid() testRunId!: string;
  @References(() => TestRun, 'test_run_id') testRun?: Relation<TestRun>;

  @Uuid() resultId!: string;
  @Uuid() testCaseId!: string;
  /** The slot's configuration, '' for none (as `test_run_case` keeps it). */
  @Varchar(100, { default: '' }) configuration!: string;

  @Varchar(255) name!: string;
  @Varchar(255) contentType!: string;
  @Column({ type: 'bigint' }) size!: string;
  @Column({ type: 'char', length: 64 }) sha256!: string;

  @Column({ type: 'enum', enum: ATTACHMENT_STATUSES, enumName: 'attachment_status' })
  status!: AttachmentStatus;
}
