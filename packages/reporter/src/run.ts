import { randomUUID } from 'node:crypto';
import type { RunOptions } from './args.js';
import type { CiMetadata } from './ci.js';
import { dataOf, type ServiceClient } from './client.js';
import { ReporterError, asEnvelope } from './errors.js';
import { idempotencyKey } from './keys.js';
import { checkPage } from './pages.js';
import type { components } from './schema.js';

export type TestRun = components['schemas']['TestRunResponse'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A project's id from its id or its key (`GET /projects` has no key filter: pages through). */
export async function projectIdOf(client: ServiceClient, project: string): Promise<string> {
  if (UUID.test(project)) return project;
  const limit = 100;
  for (let offset = 0, read = 1; ; offset += limit, read++) {
    const page = dataOf(
      'GET /api/v1/projects',
      await client.GET('/api/v1/projects', { params: { query: { limit, offset } } }),
    );
    checkPage('GET /api/v1/projects', page, read, limit);
    const found =
      page.data.find((p) => p.key === project) ??
      page.data.find((p) => p.key.toLowerCase() === project.toLowerCase());
    if (found) return found.id;
    if (!page.pagination.has_more) {
      throw new ReporterError(
        `No project with the key ${project} among the ${page.pagination.total} projects this API key sees.`,
      );
    }
  }
}

/** What joins the jobs of one pipeline: the flag, else the CI system's pipeline id. */
export function pipelineIdOf(options: RunOptions, ci: CiMetadata | undefined): string | undefined {
  if (options.pipelineId) return `flag:${options.pipelineId}`;
  return ci?.pipelineId ? `${ci.provider}:${ci.pipelineId}` : undefined;
}

/** Flags that describe the build: given, they are sent, in CI or not. */
const hasBuildFlags = (options: RunOptions) =>
  Boolean(
    options.buildName ?? options.commit ?? options.branch ?? options.buildNumber ?? options.repo,
  );

/**
 * The run's build: `--build-id`, else one registered from the build flags (`--build-name`,
 * `--commit`, `--branch`, `--build-number`, `--repo`) and the CI metadata (flags override). Its
 * `Idempotency-Key` and body depend only on the pipeline, so every shard gets the same build. A
 * build from CI metadata alone is skipped, with a warning, when the key may not create builds;
 * one the flags ask for is not.
 */
export async function buildIdOf(
  client: ServiceClient,
  options: RunOptions,
  projectId: string,
  ci: CiMetadata | undefined,
  pipelineId: string | undefined,
  warn: (text: string) => void,
): Promise<string | undefined> {
  if (options.buildId) return options.buildId;
  const asked = hasBuildFlags(options);
  if (!asked && !ci) return undefined;
  const branch = options.branch ?? ci?.branch;
  const buildNumber = options.buildNumber ?? ci?.buildNumber;
  const commit = options.commit ?? ci?.commit;
  const repoUrl = options.repo ?? ci?.repoUrl;
  const name =
    options.buildName ??
    [
      ci ? (ci.repoName ?? ci.provider) : repoUrl?.split('/').filter(Boolean).pop(),
      branch,
      buildNumber ? `#${buildNumber}` : (ci?.pipelineId ?? commit?.slice(0, 12)),
    ]
      .filter(Boolean)
      .join(' ');
  const body = {
    name: name.slice(0, 255),
    build_number: buildNumber,
    commit_sha: commit,
    branch,
    repo_url: repoUrl,
    project_id: projectId,
    release_id: options.releaseId,
  };
  const result = await client.POST('/api/v1/builds', {
    body,
    headers: {
      'Idempotency-Key': idempotencyKey('build', pipelineId ?? randomUUID(), JSON.stringify(body)),
    },
  });
  if (!asked && result.response.status === 403) {
    const { error } = asEnvelope(result.error);
    warn(`No build registered from the CI metadata (403 ${error ?? ''}); the run has no build.`);
    return undefined;
  }
  return dataOf('POST /api/v1/builds', result).id;
}

/** A run by its id; an unknown one is an error naming it. */
async function runById(client: ServiceClient, runId: string): Promise<TestRun> {
  const result = await client.GET('/api/v1/testruns/{id}', { params: { path: { id: runId } } });
  if (result.response.status === 404) {
    throw new ReporterError(`No run ${runId} (--run-id) among the runs this API key sees.`);
  }
  return dataOf('GET /api/v1/testruns/{id}', result);
}

/** What every shard of a pipeline creates its run with: the same key gives the same run. */
const runKeyOf = (pipelineId: string, projectId: string, runName: string) =>
  idempotencyKey('run', pipelineId, projectId, runName);

/** The run's creation: the first shard's creates it, every later one is its replay. */
async function createRun(
  client: ServiceClient,
  options: RunOptions,
  projectId: string,
  ci: CiMetadata | undefined,
  pipelineId: string | undefined,
  warn: (text: string) => void,
): Promise<TestRun> {
  const buildId = await buildIdOf(client, options, projectId, ci, pipelineId, warn);
  const result = await client.POST('/api/v1/testruns', {
    body: {
      project_id: projectId,
      name: options.runName as string,
      build_id: buildId,
      release_id: options.releaseId,
    },
    headers: {
      'Idempotency-Key': runKeyOf(pipelineId ?? randomUUID(), projectId, options.runName as string),
    },
  });
  if (result.response.status === 422) {
    throw new ReporterError(
      `Another job of this pipeline created the run "${options.runName}" with other options (422 idempotency_key_reused): give every job the same --build-*, --commit, --branch, --repo, --release-id and --project.`,
    );
  }
  return dataOf('POST /api/v1/testruns', result);
}

/**
 * Reopens a submitted or completed run (CONTRACT §6), for a job run again: the first attempt's
 * completion closed it. A run that is open already answers 409: another re-run job of the same
 * attempt reopened it, or it was never completed.
 */
async function reopenRun(
  client: ServiceClient,
  run: TestRun,
  why: string,
  log: (text: string) => void,
): Promise<TestRun> {
  const result = await client.PATCH('/api/v1/testruns/{id}', {
    params: { path: { id: run.id } },
    body: { status: 'in_progress' },
  });
  if (result.response.status === 409) return run;
  const reopened = dataOf('PATCH /api/v1/testruns/{id}', result);
  log(`run "${run.name}" reopened (${why})`);
  return reopened;
}

/**
 * The run to send to: `--run-id`, else the run named `--run-name` in this pipeline. Every shard
 * creates it with the same `Idempotency-Key` (pipeline, project, name) and the same body: the
 * first creates it, the others get the first's answer replayed. Outside CI (no pipeline id) the
 * key is this invocation's own, so only its retries are joined. A re-run job (its CI variables
 * say so, or `--reopen`) reopens the run the first attempt completed. `beforeWriting` runs once
 * the reads are done, before the first call that changes anything.
 */
export async function resolveRun(
  client: ServiceClient,
  options: RunOptions,
  ci: CiMetadata | undefined,
  log: (text: string) => void,
  beforeWriting: () => Promise<void>,
): Promise<TestRun> {
  const reopen = ci?.rerun ? `${ci.rerun}: a re-run job` : options.reopen ? '--reopen' : undefined;
  let run: TestRun;
  if (options.runId) {
    run = await runById(client, options.runId);
    await beforeWriting();
  } else {
    const projectId = await projectIdOf(client, options.project as string);
    const pipelineId = pipelineIdOf(options, ci);
    if (!pipelineId) {
      log(
        'No CI pipeline id (no CI variables, no --pipeline-id): parallel jobs would each create a run of their own.',
      );
    }
    await beforeWriting();
    run = await createRun(client, options, projectId, ci, pipelineId, log);
  }
  return reopen ? reopenRun(client, run, reopen, log) : run;
}

/**
 * The run `complete` completes: `--run-id`, else the one this pipeline's jobs created under
 * `--run-name`, never a new one. Whether they did is asked first with a request under the same
 * `Idempotency-Key` that cannot create a run (its build does not exist): the service answers
 * 422 when the key was used (CONTRACT §8, checked before the request is handled), and else 400
 * naming `build_id`, storing nothing. Only then is the jobs' own request sent again, for its
 * replay.
 */
export async function findRun(
  client: ServiceClient,
  options: RunOptions,
  ci: CiMetadata | undefined,
  log: (text: string) => void,
): Promise<TestRun> {
  if (options.runId) return runById(client, options.runId);
  const projectId = await projectIdOf(client, options.project as string);
  const pipelineId = pipelineIdOf(options, ci);
  if (!pipelineId) {
    throw new ReporterError(
      "Without a CI pipeline id (no CI variables, no --pipeline-id) the shards' run cannot be found by name: give --run-id or --pipeline-id.",
    );
  }
  const name = options.runName as string;
  const probe = await client.POST('/api/v1/testruns', {
    body: { project_id: projectId, name, build_id: randomUUID() },
    headers: { 'Idempotency-Key': runKeyOf(pipelineId, projectId, name) },
  });
  const { details } = asEnvelope(probe.error);
  if (probe.response.status === 400 && details?.field === 'build_id') {
    throw new ReporterError(
      `No run "${name}" in project ${options.project} for this pipeline (${pipelineId}): no job of it created the run, so there is nothing to complete (tm-report complete never creates a run). Check that the jobs ran "tm-report submit" with the same --project and --run-name, and that they sent something.`,
    );
  }
  if (probe.response.status !== 422) dataOf('POST /api/v1/testruns', probe);
  return createRun(client, options, projectId, ci, pipelineId, log);
}

/** Completes the run once; a run completed already (409) is success. */
export async function completeRun(
  client: ServiceClient,
  runId: string,
): Promise<{ run: TestRun; already: boolean }> {
  const result = await client.PATCH('/api/v1/testruns/{id}', {
    params: { path: { id: runId } },
    body: { status: 'completed' },
  });
  if (result.response.status === 409) {
    const run = dataOf(
      'GET /api/v1/testruns/{id}',
      await client.GET('/api/v1/testruns/{id}', { params: { path: { id: runId } } }),
    );
    if (run.status === 'completed') return { run, already: true };
  }
  return { run: dataOf('PATCH /api/v1/testruns/{id}', result), already: false };
}
