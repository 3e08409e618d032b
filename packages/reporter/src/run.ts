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

/**
 * Where a job's reports go: a run by its id, or the run of a build with a name, which the
 * service finds or creates with the first report (CONTRACT §6: `/results/ingest` with
 * `project_id`, `run_name` and `build_id`; ingests arriving together create one run).
 */
export type RunRef =
  | { runId: string; runName?: string }
  | { projectId: string; runName: string; buildId: string; releaseId?: string };

/** The run's name, when the reporter knows it before the service answers. */
export const runNameOf = (ref: RunRef): string | undefined => ref.runName;

/** A run by its id; an unknown one is an error naming it. */
export async function runById(client: ServiceClient, runId: string): Promise<TestRun> {
  const result = await client.GET('/api/v1/testruns/{id}', { params: { path: { id: runId } } });
  if (result.response.status === 404) {
    throw new ReporterError(`No run ${runId} (--run-id) among the runs this API key sees.`);
  }
  return dataOf('GET /api/v1/testruns/{id}', result);
}

/** What every shard of a pipeline creates its run with: the same key gives the same run. */
const runKeyOf = (pipelineId: string, projectId: string, runName: string) =>
  idempotencyKey('run', pipelineId, projectId, runName);

/**
 * The run's creation with `POST /testruns`, for a pipeline without a build (no CI metadata or
 * build flags, or a key that may not create builds): the first shard's creates it, every later
 * one is its replay.
 */
async function createRun(
  client: ServiceClient,
  options: RunOptions,
  projectId: string,
  buildId: string | undefined,
  pipelineId: string | undefined,
): Promise<TestRun> {
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
 * The build's run named `--run-name` (its newest), or undefined when no job created it: one
 * page of the build's runs, newest first (a build has a handful).
 */
async function runOfBuild(
  client: ServiceClient,
  projectId: string,
  buildId: string,
  name: string,
): Promise<TestRun | undefined> {
  const page = dataOf(
    'GET /api/v1/testruns',
    await client.GET('/api/v1/testruns', {
      params: { query: { project_id: projectId, build_id: buildId, limit: 100 } },
    }),
  );
  return page.data.find((run) => run.name === name);
}

/**
 * Reopens a submitted or completed run (CONTRACT §6), for a job run again: the first attempt's
 * completion closed it. A run that is open already answers 409: another re-run job of the same
 * attempt reopened it, or it was never completed.
 */
async function reopenRun(
  client: ServiceClient,
  run: Pick<TestRun, 'id' | 'name'>,
  why: string,
  log: (text: string) => void,
): Promise<void> {
  const result = await client.PATCH('/api/v1/testruns/{id}', {
    params: { path: { id: run.id } },
    body: { status: 'in_progress' },
  });
  if (result.response.status === 409) return;
  if (result.response.status === 404) {
    throw new ReporterError(`No run ${run.id} (--run-id) among the runs this API key sees.`);
  }
  dataOf('PATCH /api/v1/testruns/{id}', result);
  log(`run "${run.name}" reopened (${why})`);
}

/** The project, the pipeline and the build a run by name belongs to. */
interface Pipeline {
  projectId: string;
  pipelineId?: string;
  buildId?: string;
}

async function pipelineOf(
  client: ServiceClient,
  options: RunOptions,
  ci: CiMetadata | undefined,
  log: (text: string) => void,
): Promise<Pipeline> {
  const projectId = await projectIdOf(client, options.project as string);
  const pipelineId = pipelineIdOf(options, ci);
  const buildId = await buildIdOf(client, options, projectId, ci, pipelineId, log);
  return { projectId, pipelineId, buildId };
}

/**
 * Where a submit sends: `--run-id`, else the run named `--run-name` in this pipeline. With a
 * build (`--build-id`, or one registered from the CI metadata or the build flags under a key
 * derived from the pipeline, so every shard gets the same), that is the build's run of that
 * name, which the service finds or creates with the first report: a shard spends no call on
 * the run. Without one, every shard creates the run with the same `Idempotency-Key` (pipeline,
 * project, name) and the same body: the first creates it, the others get its replay. Outside
 * CI (no pipeline id) both keys are this invocation's own. A re-run job (its CI variables say
 * so, or `--reopen`) reopens the run the first attempt completed. No scope is asked up front:
 * the call that needs one names it when the key lacks it (errors.ts).
 */
export async function resolveRun(
  client: ServiceClient,
  options: RunOptions,
  ci: CiMetadata | undefined,
  log: (text: string) => void,
): Promise<RunRef> {
  const reopen = ci?.rerun ? `${ci.rerun}: a re-run job` : options.reopen ? '--reopen' : undefined;
  if (options.runId) {
    if (reopen) await reopenRun(client, { id: options.runId, name: options.runId }, reopen, log);
    return { runId: options.runId };
  }
  const { projectId, pipelineId, buildId } = await pipelineOf(client, options, ci, log);
  if (!pipelineId) {
    log(
      'No CI pipeline id (no CI variables, no --pipeline-id): parallel jobs would each create a run of their own.',
    );
  }
  const runName = options.runName as string;
  if (buildId) {
    if (reopen) {
      // Not yet created (the first attempt sent nothing), or open already: nothing to reopen.
      const run = await runOfBuild(client, projectId, buildId, runName);
      if (run && run.status !== 'in_progress') await reopenRun(client, run, reopen, log);
    }
    return { projectId, runName, buildId, releaseId: options.releaseId };
  }
  const run = await createRun(client, options, projectId, buildId, pipelineId);
  if (reopen) await reopenRun(client, run, reopen, log);
  return { runId: run.id, runName: run.name };
}

/** The message of a run `complete` did not find: it never creates one. */
function noRun(options: RunOptions, pipelineId: string): ReporterError {
  return new ReporterError(
    `No run "${options.runName}" in project ${options.project} for this pipeline (${pipelineId}): no job of it created the run, so there is nothing to complete (tm-report complete never creates a run). Check that the jobs ran "tm-report submit" with the same --project and --run-name, and that they sent something.`,
  );
}

/**
 * The run `complete` completes: `--run-id` (read, so that an unknown one is named before
 * anything is changed), else the one this pipeline's jobs created under `--run-name`, never a
 * new one. With a build (the same the jobs registered: its creation's replay), the build's run
 * of that name. Without one, whether the jobs created it is asked with a request under their `Idempotency-Key` that
 * cannot create a run (its build does not exist): the service answers 422 when the key was
 * used (CONTRACT §8, checked before the request is handled), and else 400 naming `build_id`,
 * storing nothing; only then is the jobs' own request sent again, for its replay.
 */
export async function findRun(
  client: ServiceClient,
  options: RunOptions,
  ci: CiMetadata | undefined,
  log: (text: string) => void,
): Promise<{ runId: string; run?: TestRun }> {
  if (options.runId) return { runId: options.runId, run: await runById(client, options.runId) };
  const projectId = await projectIdOf(client, options.project as string);
  const pipelineId = pipelineIdOf(options, ci);
  if (!pipelineId) {
    throw new ReporterError(
      "Without a CI pipeline id (no CI variables, no --pipeline-id) the shards' run cannot be found by name: give --run-id or --pipeline-id.",
    );
  }
  const buildId = await buildIdOf(client, options, projectId, ci, pipelineId, log);
  const name = options.runName as string;
  if (buildId) {
    const run = await runOfBuild(client, projectId, buildId, name);
    if (!run) throw noRun(options, pipelineId);
    return { runId: run.id, run };
  }
  const probe = await client.POST('/api/v1/testruns', {
    body: { project_id: projectId, name, build_id: randomUUID() },
    headers: { 'Idempotency-Key': runKeyOf(pipelineId, projectId, name) },
  });
  const { details } = asEnvelope(probe.error);
  if (probe.response.status === 400 && details?.field === 'build_id')
    throw noRun(options, pipelineId);
  if (probe.response.status !== 422) dataOf('POST /api/v1/testruns', probe);
  const run = await createRun(client, options, projectId, undefined, pipelineId);
  return { runId: run.id, run };
}

/**
 * Completes the run once; a run completed already (409) is success, and so is one `known`
 * completed (no call). An unknown `--run-id` is an error naming it.
 */
export async function completeRun(
  client: ServiceClient,
  runId: string,
  known?: TestRun,
): Promise<{ run: TestRun; already: boolean }> {
  if (known?.status === 'completed') return { run: known, already: true };
  const result = await client.PATCH('/api/v1/testruns/{id}', {
    params: { path: { id: runId } },
    body: { status: 'completed' },
  });
  if (result.response.status === 404) {
    throw new ReporterError(`No run ${runId} (--run-id) among the runs this API key sees.`);
  }
  if (result.response.status === 409) {
    const run = await runById(client, runId);
    if (run.status === 'completed') return { run, already: true };
  }
  return { run: dataOf('PATCH /api/v1/testruns/{id}', result), already: false };
}
