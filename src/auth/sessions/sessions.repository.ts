import { Injectable } from '@nestjs/common';
import { sql } from '../../database/sql.js';
import { Transactions } from '../../database/transactions.js';
import type { SignInMethod } from './entities/console-session.entity.js';

const INSERT = sql(
  'consoleSessions.insert',
  `INSERT INTO console_session (secret_hash, method, subject, email, expires_at)
   VALUES ($1, $2, $3, $4, $5)
   RETURNING id, method, subject, email, expires_at`,
);

/** The unexpired session whose secret hashes to $1. */
const FIND_LIVE = sql(
  'consoleSessions.findLive',
  `SELECT id, method, subject, email, expires_at FROM console_session
    WHERE secret_hash = $1 AND expires_at > now()`,
);

const DELETE = sql('consoleSessions.delete', `DELETE FROM console_session WHERE secret_hash = $1`);

const DELETE_EXPIRED = sql(
  'consoleSessions.deleteExpired',
  `DELETE FROM console_session WHERE expires_at <= now()`,
);

export interface LiveSession {
  id: string;
  method: SignInMethod;
  subject: string;
  email: string | null;
  expiresAt: Date;
}

interface SessionRow {
  id: string;
  method: SignInMethod;
  subject: string;
  email: string | null;
  expires_at: Date;
}

const toLiveSession = (row: SessionRow): LiveSession => ({
  id: row.id,
  method: row.method,
  subject: row.subject,
  email: row.email,
  expiresAt: row.expires_at,
});

/** The `console_session` table. Secrets never reach it, only their hashes. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly transactions: Transactions) {}

  async insert(
    secretHash: string,
    method: SignInMethod,
    subject: string,
    email: string | null,
    expiresAt: Date,
  ): Promise<LiveSession> {
    const rows: SessionRow[] = await this.transactions.outside.query(INSERT, [
      secretHash,
      method,
      subject,
      email,
      expiresAt,
    ]);
    return toLiveSession(rows[0]);
  }

  /** Read by the access guard, before any transaction of the request. */
  async findLive(secretHash: string): Promise<LiveSession | null> {
    const rows: SessionRow[] = await this.transactions.outside.query(FIND_LIVE, [secretHash]);
    return rows.length === 1 ? toLiveSession(rows[0]) : null;
  }

  async delete(secretHash: string): Promise<void> {
    await this.transactions.outside.query(DELETE, [secretHash]);
  }

  async deleteExpired(): Promise<void> {
    await this.transactions.outside.query(DELETE_EXPIRED);
  }
}
