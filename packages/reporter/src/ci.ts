import type { Env } from './config.js';

/** What a CI job's environment tells about the pipeline it belongs to. */
export interface CiMetadata {
  provider: string;
  /** Shared by every job of one pipeline run: the shards' common run key comes from it. */
  pipelineId?: string;
  /** The pipeline's number, the same in every job (a build's `build_number`). */
  buildNumber?: string;
  commit?: string;
  branch?: string;
  repoUrl?: string;
  /** A short name of the repository or job, for the build's name. */
  repoName?: string;
  jobUrl?: string;
  /**
   * Set when this job is a re-run of a job of the same pipeline (same pipeline id): the variable
   * that says so, e.g. `GITHUB_RUN_ATTEMPT=2`. The pipeline's run may be completed already.
   */
  rerun?: string;
}

const COMMIT = /^[0-9a-f]{7,64}$/i;

const clean = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
const commitOf = (value: string | undefined) => {
  const v = clean(value);
  return v && COMMIT.test(v) ? v.toLowerCase() : undefined;
};
const branchOf = (value: string | undefined) =>
  clean(value)
    ?.replace(/^refs\/heads\//, '')
    .replace(/^origin\//, '');

/** An http(s) address of a repository, from an `https://…` or an scp-like `git@host:path` one. */
export function repoUrlOf(value: string | undefined): string | undefined {
  const v = clean(value);
  if (!v) return undefined;
  const scp = /^[\w.-]+@([\w.-]+):(.+?)(?:\.git)?$/.exec(v);
  if (scp) return `https://${scp[1]}/${scp[2]}`;
  const ssh = /^ssh:\/\/[\w.-]+@([\w.-]+)(?::\d+)?\/(.+?)(?:\.git)?$/.exec(v);
  if (ssh) return `https://${ssh[1]}/${ssh[2]}`;
  return /^https?:\/\//.test(v) ? v.replace(/\.git$/, '') : undefined;
}

/**
 * The variable that says this job is a re-run, when its value is past `first` (the first
 * attempt's value: 1 where attempts count from 1, 0 where retries are counted).
 */
function rerunOf(env: Env, name: string, first: 0 | 1): string | undefined {
  const value = Number(clean(env[name]));
  return Number.isInteger(value) && value > first ? `${name}=${value}` : undefined;
}

const lastSegment = (url: string | undefined) => url?.split('/').filter(Boolean).pop();

type Detector = (env: Env) => CiMetadata | undefined;

const github: Detector = (env) => {
  if (env.GITHUB_ACTIONS !== 'true') return undefined;
  const repoUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}`
      : undefined;
  return {
    provider: 'github',
    pipelineId: clean(env.GITHUB_RUN_ID),
    buildNumber: clean(env.GITHUB_RUN_NUMBER),
    commit: commitOf(env.GITHUB_SHA),
    branch: branchOf(env.GITHUB_HEAD_REF) ?? branchOf(env.GITHUB_REF_NAME),
    repoUrl,
    repoName: clean(env.GITHUB_REPOSITORY),
    jobUrl:
      repoUrl && env.GITHUB_RUN_ID ? `${repoUrl}/actions/runs/${env.GITHUB_RUN_ID}` : undefined,
    // "Re-run jobs" keeps GITHUB_RUN_ID and counts attempts from 1.
    rerun: rerunOf(env, 'GITHUB_RUN_ATTEMPT', 1),
  };
};

const gitlab: Detector = (env) => {
  if (env.GITLAB_CI !== 'true') return undefined;
  return {
    provider: 'gitlab',
    pipelineId: clean(env.CI_PIPELINE_ID),
    buildNumber: clean(env.CI_PIPELINE_IID) ?? clean(env.CI_PIPELINE_ID),
    commit: commitOf(env.CI_COMMIT_SHA),
    branch: branchOf(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME) ?? branchOf(env.CI_COMMIT_REF_NAME),
    repoUrl: repoUrlOf(env.CI_PROJECT_URL),
    repoName: clean(env.CI_PROJECT_PATH),
    jobUrl: clean(env.CI_JOB_URL),
    // A retried job keeps CI_PIPELINE_ID; only GitLab versions that set CI_JOB_RETRY_COUNT
    // (0 on the first run) say it is one.
    rerun: rerunOf(env, 'CI_JOB_RETRY_COUNT', 0),
  };
};

const jenkins: Detector = (env) => {
  if (!env.JENKINS_URL && !env.JENKINS_HOME) return undefined;
  return {
    provider: 'jenkins',
    // BUILD_TAG is jenkins-<job>-<number>: the same for every parallel stage of one build.
    pipelineId: clean(env.BUILD_TAG) ?? clean(env.BUILD_URL),
    buildNumber: clean(env.BUILD_NUMBER),
    commit: commitOf(env.GIT_COMMIT),
    branch: branchOf(env.BRANCH_NAME) ?? branchOf(env.GIT_BRANCH),
    repoUrl: repoUrlOf(env.GIT_URL),
    repoName: clean(env.JOB_NAME),
    jobUrl: clean(env.BUILD_URL),
    // No re-run: a replay or a restart from a stage is a new build, of a new BUILD_TAG.
  };
};

const circleci: Detector = (env) => {
  if (env.CIRCLECI !== 'true') return undefined;
  const repoUrl = repoUrlOf(env.CIRCLE_REPOSITORY_URL);
  return {
    provider: 'circleci',
    // The workflow joins the jobs of one pipeline; CIRCLE_BUILD_NUM differs per job.
    pipelineId: clean(env.CIRCLE_WORKFLOW_ID),
    buildNumber: undefined,
    commit: commitOf(env.CIRCLE_SHA1),
    branch: branchOf(env.CIRCLE_BRANCH),
    repoUrl,
    repoName:
      env.CIRCLE_PROJECT_USERNAME && env.CIRCLE_PROJECT_REPONAME
        ? `${env.CIRCLE_PROJECT_USERNAME}/${env.CIRCLE_PROJECT_REPONAME}`
        : lastSegment(repoUrl),
    jobUrl: clean(env.CIRCLE_BUILD_URL),
    // No re-run: re-running a workflow (from failed, or a job) makes a new workflow id.
  };
};

const azure: Detector = (env) => {
  if (env.TF_BUILD?.toLowerCase() !== 'true') return undefined;
  const collection = clean(env.SYSTEM_COLLECTIONURI);
  return {
    provider: 'azure',
    pipelineId: clean(env.BUILD_BUILDID),
    buildNumber: clean(env.BUILD_BUILDNUMBER),
    commit: commitOf(env.BUILD_SOURCEVERSION),
    branch: branchOf(env.SYSTEM_PULLREQUEST_SOURCEBRANCH) ?? branchOf(env.BUILD_SOURCEBRANCH),
    repoUrl: repoUrlOf(env.BUILD_REPOSITORY_URI),
    repoName: clean(env.BUILD_REPOSITORY_NAME),
    jobUrl:
      collection && env.SYSTEM_TEAMPROJECT && env.BUILD_BUILDID
        ? `${collection.replace(/\/?$/, '/')}${encodeURIComponent(env.SYSTEM_TEAMPROJECT)}/_build/results?buildId=${env.BUILD_BUILDID}`
        : undefined,
    // Re-running failed jobs or a stage keeps BUILD_BUILDID; attempts count from 1.
    rerun: rerunOf(env, 'SYSTEM_JOBATTEMPT', 1) ?? rerunOf(env, 'SYSTEM_STAGEATTEMPT', 1),
  };
};

const buildkite: Detector = (env) => {
  if (env.BUILDKITE !== 'true') return undefined;
  const buildUrl = clean(env.BUILDKITE_BUILD_URL);
  return {
    provider: 'buildkite',
    pipelineId: clean(env.BUILDKITE_BUILD_ID),
    buildNumber: clean(env.BUILDKITE_BUILD_NUMBER),
    commit: commitOf(env.BUILDKITE_COMMIT),
    branch: branchOf(env.BUILDKITE_BRANCH),
    repoUrl: repoUrlOf(env.BUILDKITE_REPO),
    repoName: clean(env.BUILDKITE_PIPELINE_SLUG),
    jobUrl: buildUrl && env.BUILDKITE_JOB_ID ? `${buildUrl}#${env.BUILDKITE_JOB_ID}` : buildUrl,
    // A retried job keeps BUILDKITE_BUILD_ID; its retries are counted from 0.
    rerun: rerunOf(env, 'BUILDKITE_RETRY_COUNT', 0),
  };
};

const DETECTORS = [github, gitlab, circleci, azure, buildkite, jenkins];

/** The CI system the process runs in, from its environment variables; undefined outside CI. */
export function detectCi(env: Env): CiMetadata | undefined {
  for (const detect of DETECTORS) {
    const found = detect(env);
    if (found) return found;
  }
  return undefined;
}
