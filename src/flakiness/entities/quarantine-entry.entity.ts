import { Column, Entity, Index, PrimaryColumn, type Relation } from 'typeorm';
import { CreatedAt, References, Timestamp, UpdatedAt, Uuid } from '../../database/columns.js';
import { Project } from '../../projects/entities/project.entity.js';
import { TestCase } from '../../projects/entities/test-case.entity.js';

/**
 * A test case in quarantine (CONTRACT §12): its failures do not fail the quality gate. At most
 * one entry per case; an entry whose `expiresAt` has passed is no longer active and is
 * replaced by the next PUT. Deleting the case or its project removes the entry.
 */
@Entity('quarantine_entry')
/** `GET /projects/{id}/quarantine` lists a project's entries newest first. */
@Index('IDX_quarantine_entry_project_created', ['projectId', 'createdAt', 'testCaseId'])
export class QuarantineEntry {
  @PrimaryColumn({ type: 'uuid' })
  testCaseId!: string;

  @References(() => TestCase, 'test_case_id') testCase?: Relation<TestCase>;

  @Uuid() projectId!: string;
  @References(() => Project, 'project_id') project?: Relation<Project>;

  @Uuid() organizationId!: string;

  @Column({ type: 'text' })
  reason!: string;

  /** Null: until taken out. */
  @Timestamp({ nullable: true }) expiresAt!: Date | null;

  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}
