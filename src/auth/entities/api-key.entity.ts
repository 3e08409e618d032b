import { Column, Entity, Index, type Relation } from 'typeorm';
import { DeletedAt, References, TenantRow, Timestamp, Varchar } from '../../database/columns.js';
import { Organization } from '../../tenants/organization.entity.js';

@Entity('api_key')
@Index('IDX_api_key_organization', ['organizationId', 'createdAt'])
export class ApiKey extends TenantRow {
  @References(() => Organization, 'organization_id') organization?: Relation<Organization>;

  @Varchar(255) name!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  /** The first characters of the key, shown in lists so a user can tell keys apart. */
  @Varchar(32) prefix!: string;

  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  @Index('UQ_api_key_hash', { unique: true })
  @Column({ type: 'char', length: 64, select: false })
  keyHash!: string;

  @Timestamp({ nullable: true }) lastUsedAt!: Date | null;
  @DeletedAt() deletedAt!: Date | null;
}
