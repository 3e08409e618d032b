import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The secret that signs the service's own upload and download links, made by the first
 * replica that needs it and shared by all through the database: no setting to get wrong.
 */
@Entity('url_signing_key')
export class UrlSigningKey {
  @PrimaryColumn({ type: 'varchar', length: 64 }) name!: string;
  @Column({ type: 'bytea', select: false }) secret!: Buffer;
}
