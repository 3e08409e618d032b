import { Column, Entity, Generated, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, Timestamp } from '../../database/columns.js';

/** One `Idempotency-Key` of one caller: the request it was first used for and its response. */
@Entity('idempotency_record')
@Index('IDX_idempotency_record_created', ['createdAt'])
export class IdempotencyRecord {
  /** Whose key it is: `org:<organization id>` for API keys, `internal` for the operator. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  owner!: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key!: string;

  /** SHA-256 over method, path and raw body of the first request. */
  @Column({ type: 'char', length: 64 })
  fingerprint!: string;

  /** Null while the first request is in flight. */
  @Column({ type: 'integer', nullable: true })
  responseStatus!: number | null;

  @Column({ type: 'jsonb', nullable: true })
  responseBody!: unknown;

  /** When the in-flight request took the key; a stale claim (crashed process) can be taken over. */
  @Timestamp() lockedAt!: Date;

  /**
   * Which claim of the key a request holds: new at every claim, so a request whose claim was
   * taken over can neither store its answer nor release the claim.
   */
  @Column({ type: 'uuid' })
  @Generated('uuid')
  claimToken!: string;

  @CreatedAt() createdAt!: Date;
}
