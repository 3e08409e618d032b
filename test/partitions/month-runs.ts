import { randomBytes } from 'node:crypto';
import type { Type } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { runMonthOf, uuid7Floor, type RunMonth } from '../../src/database/run-months.js';
import { freshDatabase } from '../console/database.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';
import type { TierProject, TierRun } from '../factories/use-cases.js';

/**
 * The service tier on a database of the file's own (a copy of the run's migrated one): these
 * tests make and drop month partitions, which the other files' sweeps and plans would see.
 */
export async function startTierOnOwnDatabase(
  suffix: string,
  modules: Type[],
): Promise<ServiceTier> {
  const database = await freshDatabase(suffix);
  const workerUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = database.url;
  try {
    const s = await startServiceTier(modules);
    return {
      ...s,
      close: async () => {
        await s.close();
        await database.drop();
      },
    };
  } finally {
    process.env.DATABASE_URL = workerUrl;
  }
}

/** The month before `month`. */
export const monthBefore = (month: RunMonth): RunMonth => runMonthOf(month.start.getTime() - 1);

/** `count` months after `month` (before it when negative). */
export function monthsFrom(month: RunMonth, count: number): RunMonth {
  const start = new Date(month.start);
  start.setUTCMonth(start.getUTCMonth() + count);
  return runMonthOf(start);
}

/** A UUIDv7 of millisecond `ms` with random counter and tail bits, as a run made then has. */
export function uuid7At(ms: number): string {
  const floor = uuid7Floor(ms);
  const r = randomBytes(10).toString('hex');
  const variant = ((Number.parseInt(r[3], 16) & 0x3) | 0x8).toString(16);
  return `${floor.slice(0, 14)}7${r.slice(0, 3)}-${variant}${r.slice(4, 7)}-${r.slice(7, 19)}`;
}

/**
 * A run of `p` made at `createdAt` (its id of that millisecond), in progress, numbered among
 * its project's runs as `TestRunWrites` numbers one: what the service would have written then.
 */
export async function runMadeAt(
  db: DataSource,
  p: TierProject,
  createdAt: Date,
  fields: { releaseId?: string; name?: string } = {},
): Promise<TierRun> {
  const id = uuid7At(createdAt.getTime());
  await db.query(
    `WITH numbered AS (
       UPDATE project SET runs_created = runs_created + 1 WHERE id = $3 RETURNING runs_created)
     INSERT INTO test_run (id, organization_id, project_id, release_id, name, status, source,
                           position, created_at, updated_at)
     SELECT $1, $2, $3, $4, $5, 'in_progress', 'api', runs_created, $6, $6 FROM numbered`,
    [id, p.organizationId, p.projectId, fields.releaseId ?? null, fields.name ?? 'Run', createdAt],
  );
  return { ...p, runId: id };
}

/** The partitions holding the rows of `runId`, per table: `{ test_result: [...], ... }`. */
export async function partitionsOfRun(db: DataSource, runId: string) {
  const [row]: Array<{ results: string[]; slots: string[] }> = await db.query(
    `SELECT ARRAY(SELECT DISTINCT tableoid::regclass::text FROM test_result WHERE test_run_id = $1) AS results,
            ARRAY(SELECT DISTINCT tableoid::regclass::text FROM test_run_case WHERE test_run_id = $1) AS slots`,
    [runId],
  );
  return { test_result: row.results, test_run_case: row.slots };
}

/** The partitions `table` has, by name, sorted. */
export async function partitionsOf(db: DataSource, table: string): Promise<string[]> {
  const rows: Array<{ name: string }> = await db.query(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass ORDER BY 1`,
    [table],
  );
  return rows.map((row) => row.name);
}
