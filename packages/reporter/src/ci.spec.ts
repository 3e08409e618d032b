import { detectCi, repoUrlOf } from './ci.js';

const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';

/** Environment sets as each CI system records them (the variables the reporter reads). */
const RECORDED: Record<string, Record<string, string>> = {
  github: {
    GITHUB_ACTIONS: 'true',
    GITHUB_RUN_ID: '7012345678',
    GITHUB_RUN_NUMBER: '311',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SHA: SHA,
    GITHUB_REF_NAME: 'main',
    GITHUB_HEAD_REF: '',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'acme/web-shop',
  },
  gitlab: {
    GITLAB_CI: 'true',
    CI_PIPELINE_ID: '1234567',
    CI_PIPELINE_IID: '88',
    CI_COMMIT_SHA: SHA,
    CI_COMMIT_REF_NAME: 'main',
    CI_PROJECT_URL: 'https://gitlab.com/acme/web-shop',
    CI_PROJECT_PATH: 'acme/web-shop',
    CI_JOB_URL: 'https://gitlab.com/acme/web-shop/-/jobs/99',
  },
  jenkins: {
    JENKINS_URL: 'https://ci.acme.dev/',
    BUILD_TAG: 'jenkins-web-shop-311',
    BUILD_NUMBER: '311',
    GIT_COMMIT: SHA,
    GIT_BRANCH: 'origin/main',
    GIT_URL: 'git@github.com:acme/web-shop.git',
    JOB_NAME: 'web-shop',
    BUILD_URL: 'https://ci.acme.dev/job/web-shop/311/',
  },
  circleci: {
    CIRCLECI: 'true',
    CIRCLE_WORKFLOW_ID: '6b1f4c3e-0000-4000-8000-000000000001',
    CIRCLE_BUILD_NUM: '5501',
    CIRCLE_SHA1: SHA,
    CIRCLE_BRANCH: 'main',
    CIRCLE_REPOSITORY_URL: 'git@github.com:acme/web-shop.git',
    CIRCLE_PROJECT_USERNAME: 'acme',
    CIRCLE_PROJECT_REPONAME: 'web-shop',
    CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/web-shop/5501',
  },
  azure: {
    TF_BUILD: 'True',
    BUILD_BUILDID: '4242',
    BUILD_BUILDNUMBER: '20261124.3',
    BUILD_SOURCEVERSION: SHA,
    BUILD_SOURCEBRANCH: 'refs/heads/main',
    BUILD_REPOSITORY_URI: 'https://dev.azure.com/acme/shop/_git/web-shop',
    BUILD_REPOSITORY_NAME: 'web-shop',
    SYSTEM_COLLECTIONURI: 'https://dev.azure.com/acme/',
    SYSTEM_TEAMPROJECT: 'shop',
  },
  buildkite: {
    BUILDKITE: 'true',
    BUILDKITE_BUILD_ID: '0190a1b2-0000-4000-8000-000000000002',
    BUILDKITE_BUILD_NUMBER: '311',
    BUILDKITE_COMMIT: SHA,
    BUILDKITE_BRANCH: 'main',
    BUILDKITE_REPO: 'git@github.com:acme/web-shop.git',
    BUILDKITE_PIPELINE_SLUG: 'web-shop',
    BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/web-shop/builds/311',
    BUILDKITE_JOB_ID: 'job-7',
  },
};

describe('CI detection', () => {
  it.each(Object.keys(RECORDED))(
    'reads commit, branch, pipeline id and job URL on %s',
    (provider) => {
      const ci = detectCi(RECORDED[provider]);
      expect(ci).toMatchObject({ provider, commit: SHA, branch: 'main' });
      expect(ci?.pipelineId).toBeTruthy();
      expect(ci?.jobUrl).toMatch(/^https:\/\//);
      expect(ci?.repoUrl).toMatch(/^https:\/\/[^@]+$/);
    },
  );

  it('gives each provider its pipeline id and job URL', () => {
    expect(detectCi(RECORDED.github)).toMatchObject({
      pipelineId: '7012345678',
      buildNumber: '311',
      repoUrl: 'https://github.com/acme/web-shop',
      jobUrl: 'https://github.com/acme/web-shop/actions/runs/7012345678',
    });
    expect(detectCi(RECORDED.gitlab)).toMatchObject({ pipelineId: '1234567', buildNumber: '88' });
    expect(detectCi(RECORDED.jenkins)).toMatchObject({
      pipelineId: 'jenkins-web-shop-311',
      repoUrl: 'https://github.com/acme/web-shop',
    });
    expect(detectCi(RECORDED.circleci)?.pipelineId).toBe(RECORDED.circleci.CIRCLE_WORKFLOW_ID);
    expect(detectCi(RECORDED.azure)?.jobUrl).toBe(
      'https://dev.azure.com/acme/shop/_build/results?buildId=4242',
    );
    expect(detectCi(RECORDED.buildkite)?.jobUrl).toBe(
      'https://buildkite.com/acme/web-shop/builds/311#job-7',
    );
  });

  it('takes the source branch of a pull or merge request', () => {
    expect(
      detectCi({ ...RECORDED.github, GITHUB_HEAD_REF: 'feature/x', GITHUB_REF_NAME: '12/merge' })
        ?.branch,
    ).toBe('feature/x');
    expect(
      detectCi({ ...RECORDED.gitlab, CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/y' })?.branch,
    ).toBe('feature/y');
  });

  it('leaves out a commit that is not a hash (Buildkite can say HEAD)', () => {
    expect(detectCi({ ...RECORDED.buildkite, BUILDKITE_COMMIT: 'HEAD' })?.commit).toBeUndefined();
  });

  it('says a job is a re-run of the same pipeline where the CI system tells it', () => {
    for (const provider of Object.keys(RECORDED))
      expect(detectCi(RECORDED[provider])?.rerun).toBeUndefined();
    const rerun = (provider: string, more: Record<string, string>) =>
      detectCi({ ...RECORDED[provider], ...more })?.rerun;
    expect(rerun('github', { GITHUB_RUN_ATTEMPT: '2' })).toBe('GITHUB_RUN_ATTEMPT=2');
    expect(rerun('buildkite', { BUILDKITE_RETRY_COUNT: '0' })).toBeUndefined();
    expect(rerun('buildkite', { BUILDKITE_RETRY_COUNT: '1' })).toBe('BUILDKITE_RETRY_COUNT=1');
    expect(rerun('azure', { SYSTEM_JOBATTEMPT: '1', SYSTEM_STAGEATTEMPT: '1' })).toBeUndefined();
    expect(rerun('azure', { SYSTEM_JOBATTEMPT: '3' })).toBe('SYSTEM_JOBATTEMPT=3');
    expect(rerun('azure', { SYSTEM_JOBATTEMPT: '1', SYSTEM_STAGEATTEMPT: '2' })).toBe(
      'SYSTEM_STAGEATTEMPT=2',
    );
    expect(rerun('gitlab', { CI_JOB_RETRY_COUNT: '1' })).toBe('CI_JOB_RETRY_COUNT=1');
    // A value that is no count is no re-run.
    expect(rerun('github', { GITHUB_RUN_ATTEMPT: 'two' })).toBeUndefined();
    // Jenkins and CircleCI re-run a pipeline under a new pipeline id: a new run, nothing to reopen.
    expect(rerun('jenkins', { BUILD_NUMBER: '312' })).toBeUndefined();
  });

  it('finds nothing outside CI', () => {
    expect(detectCi({ HOME: '/home/me', PATH: '/usr/bin' })).toBeUndefined();
  });

  it('turns scp-like and ssh repository addresses into https ones', () => {
    expect(repoUrlOf('git@gitlab.com:acme/shop.git')).toBe('https://gitlab.com/acme/shop');
    expect(repoUrlOf('ssh://git@github.com:22/acme/shop.git')).toBe('https://github.com/acme/shop');
    expect(repoUrlOf('file:///srv/repo')).toBeUndefined();
  });
});
