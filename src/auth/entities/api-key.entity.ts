import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { Organization } from '../../organizations/entities/organization.entity.js';

@Entity('api_key')
@Index('IDX_api_key_organization', ['organizationId', 'createdAt'])
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  /** The first characters of the key, shown in lists so a user can tell keys apart. */
  @Column({ type: 'varchar', length: 32 })
  prefix!: string;

  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  @Index('UQ_api_key_hash', { unique: true })
  @Column({ type: 'char', length: 64, select: false })
  keyHash!: string;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @DeleteDateColumn({ type: 'timestamptz', precision: 3 })
  deletedAt!: Date | null;
}
