// The scale bench's writes, shared by bench/scale.mjs and bench/scale/ingest-profile.mjs: a
// 20,000-case JUnit report, its ingest timed with the CPU it cost, and PostgreSQL's statements.
import { cpuMs, junitReport, viaHttps } from '../support.mjs';

export const REPORT_CASES = 20_000;

/** The scale bench's report: REPORT_CASES cases in package `pkg` (another package: other cases). */
export function report(round, pkg = 'com.acme') {
  return junitReport({ cases: REPORT_CASES, round, pkg, prefix: 'Scale' });
}

/**
 * Ingests `body` (a report) into a new run of `target`'s project (and release, with
 * `intoRelease`), where `target` is { service, key, project, release }: its results/s, the
 * run, and the CPU the service and PostgreSQL (all of its processes) used for it.
 */
export async function ingest(target, body, intoRelease = false) {
  const query = intoRelease
    ? `project_id=${target.project.id}&release_id=${target.release.id}&run_name=release-ingest`
    : `project_id=${target.project.id}&run_name=ingest`;
  const cpu = cpuMs(target.service.child.pid);
  const started = process.hrtime.bigint();
  const res = await fetch(`${target.service.base}/api/v1/results/ingest?${query}`, {
    method: 'POST',
    headers: { ...viaHttps, authorization: `Bearer ${target.key}`, 'content-type': 'application/xml' },
    body,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 201) throw new Error(`ingest: ${res.status} ${await res.text()}`);
  const { test_run_id: runId } = await res.json();
  const after = cpuMs(target.service.child.pid);
  return {
    runId,
    ms,
    rate: Math.round(REPORT_CASES / (ms / 1000)),
    serviceCpuMs: after.service - cpu.service,
    postgresCpuMs: after.postgres - cpu.postgres,
    cpuMs: after.service - cpu.service + after.postgres - cpu.postgres,
  };
}

/** Database `name`'s statements by total time since pg_stat_statements was last reset. */
export async function topStatements(client, name, limit = 12) {
  const { rows } = await client.query(
    `SELECT round(total_exec_time::numeric) AS ms, calls, rows, shared_blks_hit AS hit, shared_blks_read AS read,
            shared_blks_dirtied AS dirtied, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)
      ORDER BY total_exec_time DESC LIMIT $2`,
    [name, limit],
  );
  return rows;
}
