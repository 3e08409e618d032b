import { Column, Entity, Index, type Relation } from 'typeorm';
import {
  ChangingTenantRow,
  Counter,
  Flag,
  OptionalText,
  References,
  Varchar,
} from '../../database/columns.js';
import { Organization } from '../../tenants/organization.entity.js';

@Entity('project')
// Keys are unique per organization in any case (CONTRACT §6): a unique index on
// (organization_id, lower(key)), made by its migration. TypeORM cannot describe an expression
// index, so it is declared here only to be left alone by the schema check (synchronize: false).
@Index('UQ_project_organization_lower_key', { synchronize: false })
@Index('IDX_project_organization_created', ['organizationId', 'createdAt'])
export class Project extends ChangingTenantRow {
  @References(() => Organization, 'organization_id') organization?: Relation<Organization>;

  @Varchar(255) name!: string;

  /** Short code, unique within the organization without regard to case (e.g. `WEB`). */
  @Varchar(32) key!: string;

  @OptionalText() description!: string | null;

  /**
   * The quality gate's `min_pass_rate` (CONTRACT §12): passed / executed must reach it; null
   * skips the rule.
   */
  @Column({ type: 'double precision', nullable: true })
  gateMinPassRate!: number | null;

  /** The quality gate's `no_missing_tests`: a case of the baseline absent now fails it. */
  @Flag(false) gateForbidMissingTests!: boolean;

  /** The quality gate's `min_tests`: the least executed results a run needs (0: no minimum). */
  @Column({ type: 'integer', default: 1 })
  gateMinTests!: number;

  /**
   * Where the project's defects live: an http(s) URL with `{id}`, which a result's defect id
   * replaces to link it (`defect-links.ts`); null shows defect ids as text.
   */
  @Varchar(2048, { nullable: true }) defectUrlTemplate!: string | null;

  /**
   * How many runs the project has had: a new run takes the next number as its `position`,
   * counted in the run's own transaction (the row stays locked until it commits).
   */
  @Counter() runsCreated!: number;

  /**
   * Days a run is kept after its creation (the worker's retention sweep deletes older ones with
   * their results); null keeps every run.
   */
  @Column({ type: 'integer', nullable: true })
  retentionDays!: number | null;
}
