// The scale benchmark's months (issue 29): `test_result` and `test_run_case` are partitioned by
// month of run (`src/database/run-months.ts`), so the grown database spreads its projects over
// past months; this file places them, makes the months' partitions with the worker's own
// classes, counts what each partition holds, and drops the oldest month through the real
// retention sweeper, measured.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '../../dist/config/config.module.js';
import { settingsFromEnvironment } from '../../dist/config/environment.js';
import { DatabaseModule } from '../../dist/database/database.module.js';
import { ENTITIES } from '../../dist/entities.js';
import { PartitionKeeper } from '../../dist/partitions/partition-keeper.js';
import { PartitionKeeperModule } from '../../dist/partitions/partitions.module.js';
import { RunPartitionsRepository } from '../../dist/partitions/run-partitions.repository.js';
import { monthAfter, runMonthOf } from '../../dist/database/run-months.js';
import { RetentionSweeper } from '../../dist/retention/retention-sweeper.js';
import { RetentionWorkerModule } from '../../dist/retention/retention.module.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How far back the projects' runs go: the oldest project's, about this many months ago. */
export const SPAN_MONTHS = 6;
/** The service's and this process's sweeper never run on their own timer (a day, the most). */
export const NO_SWEEP_TIMER = { RETENTION_SWEEP_INTERVAL_MS: String(DAY) };

/**
 * When each of `projects` projects of `runs` hourly runs ends (`endAt` of the seeder): oldest
 * first, spread evenly from SPAN_MONTHS months ago to now (the last one, measured, at now).
 * All but the last stay inside one month, so expiring a project never expires a run of
 * another month.
 */
export function projectEnds(projects, runs, now = Date.now()) {
  const span = Math.round(SPAN_MONTHS * 30.44 * DAY);
  return Array.from({ length: projects }, (_, p) => {
    if (p === projects - 1) return now;
    let endAt = now - Math.round(((projects - 1 - p) / (projects - 1)) * span);
    // The seeder's runs: the last three hours before endAt's hour, the first runs - 1 before it.
    const lastRun = Math.floor(endAt / HOUR) * HOUR - 3 * HOUR;
    if (runMonthOf(lastRun - (runs - 1) * HOUR).suffix !== runMonthOf(lastRun).suffix) {
      endAt = runMonthOf(lastRun).start.getTime() - 1;
    }
    return endAt;
  });
}

/**
 * The worker's retention sweeper and partition keeper in this process, on the bench's database
 * (the service runs apart, `startService`): a Nest application context of just their modules.
 */
export async function startWorker(databaseUrl) {
  class ScaleWorker {}
  Module({
    imports: [
      ConfigModule.forRoot(
        settingsFromEnvironment({
          DATABASE_URL: databaseUrl,
          APP_ROLE: 'worker',
          ...NO_SWEEP_TIMER,
        }),
      ),
      DatabaseModule.forRoot(ENTITIES),
      RetentionWorkerModule,
      PartitionKeeperModule,
    ],
  })(ScaleWorker);
  const app = await NestFactory.createApplicationContext(ScaleWorker, {
    logger: ['error', 'warn', 'log'],
  });
  await app.init();
  return app;
}

/** Makes the partitions of every month from `earliest`'s to now's (and the keeper's months ahead). */
export async function createMonthsSince(worker, earliest, now = Date.now()) {
  const keeper = worker.get(PartitionKeeper);
  const made = [];
  for (let month = runMonthOf(earliest); month.start.getTime() <= now; month = monthAfter(month)) {
    made.push(...(await keeper.createAhead(month.start)));
  }
  return made.length;
}

/** Each partition of `test_result` and `test_run_case` with its rows (counted), oldest first. */
export async function partitionRows(client) {
  const { rows } = await client.query(
    `SELECT parent.relname AS table, c.relname AS partition, c.reltuples::float8 AS estimate
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class parent ON parent.oid = i.inhparent
      WHERE parent.relname IN ('test_result', 'test_run_case')
      ORDER BY parent.relname, c.relname`,
  );
  for (const row of rows) {
    row.rows = Number(
      (await client.query(`SELECT count(*) FROM "${row.partition}"`)).rows[0].count,
    );
  }
  return rows;
}

/** Prints the results per month partition; false (and says so) when a default partition holds rows. */
export function reportPartitions(partitions) {
  const results = partitions.filter((p) => p.table === 'test_result');
  console.table(
    results.map((p) => ({
      partition: p.partition,
      results: p.rows,
      'estimate (reltuples)': p.estimate,
      'current results': partitions.find(
        (q) => q.partition === p.partition.replace('test_result', 'test_run_case'),
      )?.rows,
    })),
  );
  const stray = partitions.filter((p) => p.partition.endsWith('_default') && p.rows > 0);
  for (const p of stray)
    console.log(`DEFAULT PARTITION NOT EMPTY: ${p.partition} holds ${p.rows} rows`);
  return stray.length === 0;
}

/**
 * Drops the oldest month through the real retention path: the projects with runs in it get a
 * retention (internal API) that expires exactly their runs (they have none in later months,
 * `projectEnds`; every other project keeps everything), then one sweep. Measured: the sweep,
 * the oldest month's drop transaction and each of its steps (time and WAL), how long the
 * tables were locked, the WAL written and the database's size before and after.
 */
export async function dropOldestMonth({ client, worker, setRetention, now = Date.now() }) {
  const [oldest] = await worker.get(RunPartitionsRepository).months();
  const partition = `test_result_${oldest.suffix}`;
  const results = Number((await client.query(`SELECT count(*) FROM "${partition}"`)).rows[0].count);
  const { rows: projects } = await client.query(
    'SELECT DISTINCT project_id AS id FROM test_run WHERE id >= $1 AND id < $2',
    [oldest.from, oldest.to],
  );
  // Its runs were all created before its end: kept fewer days than have passed since, they expire.
  const days = Math.floor((now - oldest.end.getTime()) / DAY);
  if (days < 1) throw new Error(`the oldest month ${oldest.suffix} has not ended a day ago`);
  for (const project of projects) await setRetention(project.id, days);

  const sweeper = worker.get(RetentionSweeper);
  // Each step of the drop's transaction timed, with the WAL it wrote (this bench's database is
  // the only one written to), from outside: the sweeper calls them through its fields.
  const steps = new Map();
  const lsn = async () =>
    (await client.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
  const timeSteps = (object, method, step) => {
    const original = object[method].bind(object);
    object[method] = async (...args) => {
      const at = await lsn();
      const started = process.hrtime.bigint();
      const value = await original(...args);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const { wal } = (
        await client.query(
          'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::float8 AS wal',
          [at],
        )
      ).rows[0];
      const sum = steps.get(step) ?? { step, calls: 0, ms: 0, walBytes: 0, endedAt: 0n };
      steps.set(step, {
        step,
        calls: sum.calls + 1,
        ms: sum.ms + ms,
        walBytes: sum.walBytes + wal,
        startedAt: started,
        endedAt: process.hrtime.bigint(),
      });
      return value;
    };
  };
  let oldestDropped = null;
  const dropMonth = sweeper.dropMonth.bind(sweeper);
  sweeper.dropMonth = async (month, at) => {
    // Only the oldest month's steps are kept: the empty months after it would mix in.
    if (month.suffix !== oldest.suffix) return dropMonth(month, at);
    const started = process.hrtime.bigint();
    const dropped = await dropMonth(month, at);
    const ended = process.hrtime.bigint();
    oldestDropped = {
      transactionMs: Number(ended - started) / 1e6,
      // From the tables' lock (taken by the drop) to the commit: every statement on them waits.
      lockedMs: steps.has('lock + DROP TABLE')
        ? Number(ended - steps.get('lock + DROP TABLE').startedAt) / 1e6
        : null,
      steps: [...steps.values()].map(({ step, calls, ms, walBytes }) => ({
        step,
        calls,
        ms: Math.round(ms),
        walBytes,
      })),
    };
    return dropped;
  };
  const emptyMonths = [];
  const partitions = worker.get(RunPartitionsRepository);
  const drop = partitions.drop.bind(partitions);
  partitions.drop = (month) => {
    if (month.suffix !== oldest.suffix) emptyMonths.push(month.suffix);
    return drop(month);
  };
  timeSteps(partitions, 'drop', 'lock + DROP TABLE');
  timeSteps(sweeper.caseOutcomes, 'forgetRun', 'flaky summary: forget each run');
  timeSteps(sweeper.attachments, 'deleteOfRuns', 'attachments');
  timeSteps(sweeper.retention, 'deleteRuns', 'delete the runs (test_run)');
  timeSteps(sweeper.releaseSlots, 'forgetRuns', 'release slots: forget the runs');

  const before = (await client.query(STATE, [null])).rows[0];
  const started = process.hrtime.bigint();
  const report = await sweeper.sweep(new Date(now));
  const sweepMs = Number(process.hrtime.bigint() - started) / 1e6;
  const after = (await client.query(STATE, [before.lsn])).rows[0];
  const left = (await client.query('SELECT to_regclass($1) IS NOT NULL AS left', [partition]))
    .rows[0].left;
  return {
    month: oldest.suffix,
    results,
    projects: projects.length,
    retentionDays: days,
    report,
    left,
    sweepMs,
    oldestDropped,
    emptyMonthsDropped: emptyMonths,
    walBytes: Number(after.wal),
    sizeBefore: Number(before.size),
    sizeAfter: Number(after.size),
  };
}

/** The database's size and the WAL position (and, given the one before, the bytes since). */
const STATE = `SELECT pg_database_size(current_database())::float8 AS size, pg_current_wal_lsn()::text AS lsn,
                      pg_wal_lsn_diff(pg_current_wal_lsn(), coalesce($1::text, pg_current_wal_lsn()::text)::pg_lsn)::float8 AS wal`;
