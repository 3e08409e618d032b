import { Column, Entity, Index } from 'typeorm';
import { ChangingTenantRow, Uuid, Varchar } from '../../database/columns.js';

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
export class TestCase extends ChangingTenantRow {
  /**
   * Its project; deleting the project removes its cases. Checked once per statement by
   * triggers (migration `ReferencesCheckedPerStatement`): reports create cases by the thousand.
   */
  @Uuid() projectId!: string;

  @Varchar(1000) title!: string;
  @Varchar(1000, { nullable: true }) automationId!: string | null;

  /** Path of the case in the project's tree, e.g. `Checkout / Payments`. */
  @Varchar(1000, { nullable: true }) section!: string | null;

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
}
