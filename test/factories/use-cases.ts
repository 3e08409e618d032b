import { organizationCaller } from '../../src/common/caller.js';
import { ApiError } from '../../src/common/errors/api-error.js';
import { OrganizationsService } from '../../src/organizations/organizations.service.js';
import { ProjectsService } from '../../src/projects/projects.service.js';
import { parseSubmitResults } from '../../src/results/result-commands.js';
import type { ResultItem } from '../../src/results/result-items.js';
import { CreateTestRun } from '../../src/test-run-lifecycle/create-test-run.usecase.js';
import { SubmitResults } from '../../src/test-run-lifecycle/submit-results.usecase.js';
import { TransitionTestRun } from '../../src/test-run-lifecycle/transition-test-run.usecase.js';
import type { TestRunStatus } from '../../src/testruns/entities/test-run.entity.js';
import type { ServiceTier } from '../support/service-tier.js';

/** A project of an organization of its own, as the service tier's fixtures name it. */
export interface TierProject {
  organizationId: string;
  projectId: string;
}

export interface TierRun extends TierProject {
  runId: string;
}

let counter = 0;

/**
 * The service tier's fixtures, made by the services and use cases themselves (those of
 * OrganizationsModule, ProjectsModule and TestRunLifecycleModule), so a test states only what
 * it is about. Items and bodies go through the controllers' parsers, as a request's would.
 */
export function useCases(s: ServiceTier) {
  async function project(): Promise<TierProject> {
    const org = await s.get(OrganizationsService).create({ name: `Org ${++counter}`, plan: 'pro' });
    const created = await s
      .get(ProjectsService)
      .create(org.id, { name: 'Web', key: `TIER${counter}` });
    return { organizationId: org.id, projectId: created.id };
  }

  /** A run of `p` (a new project when none), with the fields of `POST /testruns`. */
  async function run(p?: TierProject, fields: Record<string, unknown> = {}): Promise<TierRun> {
    const owner = p ?? (await project());
    const created = await s.get(CreateTestRun).execute({
      caller: organizationCaller(owner.organizationId),
      source: 'api',
      run: { project_id: owner.projectId, name: 'Run', ...fields },
    });
    return { ...owner, runId: created.id };
  }

  const submit = (r: TierRun, results: unknown[], complete?: boolean) =>
    s.get(SubmitResults).execute({
      caller: organizationCaller(r.organizationId),
      testRunId: r.runId,
      ...parseSubmitResults(complete === undefined ? { results } : { results, complete }),
    });

  const transition = (r: TierRun, status: TestRunStatus) =>
    s
      .get(TransitionTestRun)
      .execute({ caller: organizationCaller(r.organizationId), testRunId: r.runId, status });

  const testCase = (p: TierProject, fields: { automation_id?: string; title?: string } = {}) =>
    s.get(ProjectsService).createTestCase(organizationCaller(p.organizationId), p.projectId, {
      title: `Case ${++counter}`,
      ...fields,
    });

  return { project, run, submit, transition, testCase };
}

/** The refusal `work` threw, as the client would read it. */
export async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return { status: error.getStatus(), ...error.toEnvelope() };
}

/**
 * A result item as the parsers make it, naming its case by `automationId`, with `more` over
 * the defaults: for the tests that write items the JSON body cannot say as briefly.
 */
export function resultItem(
  automationId: string,
  status: ResultItem['status'],
  more: Partial<ResultItem> = {},
): ResultItem {
  return {
    testCaseId: null,
    automationId,
    title: null,
    section: null,
    status,
    durationMs: null,
    message: null,
    failureType: null,
    stackTrace: null,
    defects: [],
    retries: 0,
    executedAt: null,
    configuration: null,
    attempts: [],
    ...more,
  };
}
