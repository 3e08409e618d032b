import { Column, Entity, Index } from 'typeorm';
import { Row, Timestamp, Varchar } from '../../../database/columns.js';

/** How an operator signed in to the console. */
export const SIGN_IN_METHODS = ['token', 'oidc'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/**
 * A signed-in console session. The browser holds the secret in an httpOnly cookie; the
 * database holds only its hash, so a copy of this table opens no session.
 */
@Entity('console_session')
export class ConsoleSession extends Row {
  /** HMAC-SHA-256 of the cookie's secret keyed with the operator token, hex (`hashSessionSecret`). */
  @Index('UQ_console_session_secret_hash', { unique: true })
  @Column({ type: 'char', length: 64, select: false })
  secretHash!: string;

  /** `token` (ADMIN_TOKEN on the sign-in form) or `oidc` (the OpenID provider's sign-in). */
  @Varchar(16) method!: SignInMethod;

  /** Who signed in: `operator` for the token, the provider's `sub` for OIDC. */
  @Varchar(255) subject!: string;

  /** The provider's email of who signed in (OIDC); null for the token. */
  @Varchar(320, { nullable: true }) email!: string | null;

  /** The session is refused from this moment on; expired rows are deleted at the next sign-in. */
  @Index('IDX_console_session_expires_at')
  @Timestamp()
  expiresAt!: Date;
}
