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

/**
 * The run's build: `--build-id`, else one registered from `--build-name` or the CI metadata
 * (flags override). Its `Idempotency-Key` and body depend only on the pipeline, so every shard
 * gets the same build. A build from CI metadata alone is skipped, with a warning, when the key
 * may not create builds.
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
  if (!options.buildName && !ci) return undefined;
  const branch = options.branch ?? ci?.branch;
  const buildNumber = options.buildNumber ?? ci?.buildNumber;
  const name =
    options.buildName ??
    [ci?.repoName ?? ci?.provider, branch, buildNumber ? `#${buildNumber}` : ci?.pipelineId]
      .filter(Boolean)
      .join(' ');
  const body = {
    name: name.slice(0, 255),
    build_number: buildNumber,
    commit_sha: options.commit ?? ci?.commit,
    branch,
    repo_url: options.repo ?? ci?.repoUrl,
    project_id: projectId,
    release_id: options.releaseId,
  };
  const result = await client.POST('/api/v1/builds', {
    body,
    headers: {
      'Idempotency-Key': idempotencyKey('build', pipelineId ?? randomUUID(), JSON.stringify(body)),
    },
  });
  if (!options.buildName && result.response.status === 403) {
    const { error } = asEnvelope(result.error);
    warn(`No build registered from the CI metadata (403 ${error ?? ''}); the run has no build.`);
    return undefined;
  }
  return dataOf('POST /api/v1/builds', result).id;
}

/**
 * The run to send to: `--run-id`, else the run named `--run-name` in this pipeline. Every shard
 * creates it with the same `Idempotency-Key` (pipeline, project, name) and the same body: the
 * first creates it, the others get the first's answer replayed. Outside CI (no pipeline id) the
 * key is this invocation's own, so only its retries are joined.
 */
export async function resolveRun(
  client: ServiceClient,
  options: RunOptions,
  ci: CiMetadata | undefined,
  warn: (text: string) => void,
  joinOnly = false,
): Promise<TestRun> {
  if (options.runId) {
    return dataOf(
      'GET /api/v1/testruns/{id}',
      await client.GET('/api/v1/testruns/{id}', { params: { path: { id: options.runId } } }),
    );
  }
  const projectId = await projectIdOf(client, options.project as string);
  const pipelineId = pipelineIdOf(options, ci);
  if (!pipelineId && joinOnly) {
    throw new ReporterError(
      "Without a CI pipeline id (no CI variables, no --pipeline-id) the shards' run cannot be found by name: give --run-id or --pipeline-id.",
    );
  }
  if (!pipelineId) {
    warn(
      'No CI pipeline id (no CI variables, no --pipeline-id): parallel jobs would each create a run of their own.',
    );
  }
  const buildId = await buildIdOf(client, options, projectId, ci, pipelineId, warn);
  const result = await client.POST('/api/v1/testruns', {
    body: {
      project_id: projectId,
      name: options.runName as string,
      build_id: buildId,
      release_id: options.releaseId,
    },
    headers: {
      'Idempotency-Key': idempotencyKey(
        'run',
        pipelineId ?? randomUUID(),
        projectId,
        options.runName as string,
      ),
    },
  });
  if (result.response.status === 422) {
    throw new ReporterError(
      `Another job of this pipeline created the run "${options.runName}" with other options (422 idempotency_key_reused): give every job the same --build-*, --release-id and --project.`,
    );
  }
  return dataOf('POST /api/v1/testruns', result);
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
