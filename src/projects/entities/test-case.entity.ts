import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export const TEST_CASE_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type TestCasePriority = (typeof TEST_CASE_PRIORITIES)[number];
export const TEST_CASE_STATUSES = ['active', 'deprecated'] as const;
export type TestCaseStatus = (typeof TEST_CASE_STATUSES)[number];

@Entity('test_case')
/** One case per automated test: results name cases by this key. */
@Index('UQ_test_case_project_automation_id', ['projectId', 'automationId'], { unique: true })
@Index('IDX_test_case_project_created', ['projectId', 'createdAt'])
/** Incremental sync (`updated_after`) walks this index. */
@Index('IDX_test_case_project_updated', ['projectId', 'updatedAt'])
export class TestCase {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  organizationId!: string;

  /**
   * Its project; deleting the project removes its cases. Checked once per statement by
   * triggers (migration `ReferencesCheckedPerStatement`): reports create cases by the thousand.
   */
  @Column({ type: 'uuid' })
  projectId!: string;

  @Column({ type: 'varchar', length: 1000 })
  title!: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  automationId!: string | null;

  /** Path of the case in the project's tree, e.g. `Checkout / Payments`. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  section!: string | null;

  @Column({
    type: 'enum',
    enum: TEST_CASE_PRIORITIES,
    enumName: 'test_case_priority',
    default: 'medium',
  })
  priority!: TestCasePriority;

  @Column({
    type: 'enum',
    enum: TEST_CASE_STATUSES,
    enumName: 'test_case_status',
    default: 'active',
  })
  status!: TestCaseStatus;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
