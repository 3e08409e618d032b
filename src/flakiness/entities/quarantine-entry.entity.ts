import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
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

  @ManyToOne(() => TestCase, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'test_case_id' })
  testCase?: Relation<TestCase>;

  @Column({ type: 'uuid' })
  projectId!: string;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;

  @Column({ type: 'uuid' })
  organizationId!: string;

  @Column({ type: 'text' })
  reason!: string;

  /** Null: until taken out. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  expiresAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
