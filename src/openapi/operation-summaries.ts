import type { OpenAPIObject } from '@nestjs/swagger';

/** One line per operation, as listed in API references and generated clients. */
const SUMMARIES: Record<string, string> = {
  'GET /api/v1/organizations': 'List your organization',
  'GET /api/v1/projects': 'List projects',
  'GET /api/v1/projects/{id}/testcases': 'List a project’s test cases',
  'GET /api/v1/releases/{id}/progress': 'Release readiness summary',
  'POST /api/v1/builds': 'Create a build',
  'GET /api/v1/builds': 'List builds',
  'GET /api/v1/builds/{id}': 'Get a build',
  'PATCH /api/v1/builds/{id}': 'Update a build or assign it to a release',
  'POST /api/v1/testruns': 'Create a test run',
  'GET /api/v1/testruns': 'List test runs',
  'GET /api/v1/testruns/{id}': 'Get a test run with live counts',
  'PATCH /api/v1/testruns/{id}': 'Submit or complete a test run',
  'POST /api/v1/testruns/{id}/results': 'Submit results to a test run',
  'GET /api/v1/testruns/{id}/results': 'List a test run’s results',
  'POST /api/v1/results/ingest': 'Ingest results (JSON or JUnit XML)',
  'GET /api/v1/webhooks': 'List webhook subscriptions',
  'POST /api/v1/webhooks': 'Create a webhook subscription',
  'DELETE /api/v1/webhooks/{id}': 'Delete a webhook subscription',
  'GET /api/v1/webhooks/{id}/deliveries': 'List deliveries of a subscription',
  'POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': 'Redeliver an event',
  'GET /api/v1/events': 'List webhook event types',
  'GET /api/v1/projects/{id}/flaky-tests': 'List a project’s flaky tests',
  'GET /api/v1/projects/{id}/quarantine': 'List a project’s quarantined test cases',
  'GET /api/v1/testcases/{id}/results': 'A test case’s results across runs (its history)',
  'GET /api/v1/testruns/{id}/failures': 'A run’s failures grouped by signature',
  'GET /api/v1/testruns/{id}/comparison': 'Compare a run with its baseline',
  'GET /api/v1/testruns/{id}/gate': 'A run’s quality gate verdict',
  'PUT /api/v1/projects/{id}/quarantine/{testCaseId}': 'Quarantine a test case',
  'DELETE /api/v1/projects/{id}/quarantine/{testCaseId}': 'Take a test case out of quarantine',
  'POST /api/v1/testruns/{id}/attachments':
    'Describe attachments of a run’s results (upload links)',
  'POST /api/v1/testruns/{id}/attachments/complete': 'Complete uploaded attachments',
  'GET /api/v1/attachments/{id}': 'Get an attachment',
  'GET /api/v1/attachments/{id}/content': 'An attachment’s content (redirect to a signed link)',
  'PUT /api/v1/attachments/{id}/upload': 'Upload an attachment’s content (signed link)',
  'GET /api/v1/attachments/{id}/download': 'Download an attachment’s content (signed link)',
  'GET /api/v1/openapi.json': 'This OpenAPI document',
  'GET /api/v1/openapi': 'Discover the OpenAPI document (redirect)',
};

/** The internal API's operations, as the console's client lists them. */
export const INTERNAL_SUMMARIES: Record<string, string> = {
  'POST /internal/v1/organizations': 'Create an organization',
  'GET /internal/v1/organizations': 'List organizations',
  'GET /internal/v1/organizations/{id}': 'Get an organization',
  'PATCH /internal/v1/organizations/{id}': 'Change an organization’s name, plan or limit',
  'POST /internal/v1/organizations/{id}/projects': 'Create a project',
  'GET /internal/v1/organizations/{id}/projects': 'List an organization’s projects',
  'POST /internal/v1/projects/{id}/testcases': 'Create a test case',
  'GET /internal/v1/projects/{id}/testcases': 'List or search a project’s test cases',
  'POST /internal/v1/projects/{id}/releases': 'Create a release',
  'GET /internal/v1/projects/{id}/releases': 'List a project’s releases, with their progress',
  'GET /internal/v1/releases/{id}': 'Get a release, with its progress and readiness',
  'PATCH /internal/v1/releases/{id}': 'Change a release’s status',
  'GET /internal/v1/releases/{id}/testruns': 'List a release’s test runs',
  'POST /internal/v1/organizations/{id}/builds': 'Create a build from the console',
  'GET /internal/v1/organizations/{id}/build-queue': 'Planned builds in queue order',
  'POST /internal/v1/builds/{id}/assign': 'Assign a build to a release',
  'POST /internal/v1/projects/{id}/testruns': 'Create a test run from the console',
  'GET /internal/v1/projects/{id}/testruns': 'List a project’s test runs',
  'GET /internal/v1/projects/{id}': 'Get a project, with its organization',
  'PATCH /internal/v1/projects/{id}/defect-url-template': 'Set where a project’s defects live',
  'GET /internal/v1/projects/{id}/retention': 'How long a project keeps its runs',
  'PATCH /internal/v1/projects/{id}/retention': 'Set how long a project keeps its runs',
  'GET /internal/v1/testruns/{id}': 'Get a test run',
  'GET /internal/v1/testruns/{id}/results': 'List a test run’s results',
  'GET /internal/v1/results/{id}': 'Get a result, with its run, build and defect links',
  'GET /internal/v1/results/{id}/attachments':
    'List a result’s attachments, with short-lived links to their bytes',
  'GET /internal/v1/testruns/{id}/configurations': 'The configurations of a run’s results',
  'POST /internal/v1/testruns/{id}/results': 'Submit results to a test run as the operator',
  'PATCH /internal/v1/testruns/{id}': 'Submit or complete a test run as the operator',
  'GET /internal/v1/testruns/{id}/failures': 'A run’s failures grouped by signature',
  'GET /internal/v1/testruns/{id}/comparison': 'Compare a run with its baseline',
  'GET /internal/v1/testruns/{id}/gate': 'A run’s quality gate verdict',
  'PATCH /internal/v1/projects/{id}': 'Change a project’s quality gate',
  'GET /internal/v1/projects/{id}/gate-settings': 'Get a project’s quality gate settings',
  'POST /internal/v1/organizations/{id}/api-keys': 'Create an API key (shown once)',
  'GET /internal/v1/organizations/{id}/api-keys': 'List an organization’s API keys',
  'DELETE /internal/v1/api-keys/{id}': 'Delete an API key',
  'POST /internal/v1/organizations/{id}/webhooks':
    'Create a webhook subscription (secret shown once)',
  'GET /internal/v1/organizations/{id}/webhooks': 'List an organization’s webhook subscriptions',
  'GET /internal/v1/webhooks/{id}': 'Get a webhook subscription, with its organization',
  'PATCH /internal/v1/webhooks/{id}': 'Switch a webhook subscription on or off',
  'DELETE /internal/v1/webhooks/{id}': 'Delete a webhook subscription',
  'GET /internal/v1/webhooks/{id}/deliveries': 'List deliveries of a subscription',
  'POST /internal/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': 'Redeliver an event',
  'GET /internal/v1/testruns/{id}/live': 'A test run, live (server-sent events)',
  'GET /internal/v1/projects/{id}/testruns/live':
    'A project’s test runs, live (server-sent events)',
  'GET /internal/v1/limits': 'The per-minute limit every organization has',
  'POST /internal/v1/session': 'Sign in to the console with the operator token',
  'GET /internal/v1/session': 'The console session of the cookie sent',
  'DELETE /internal/v1/session': 'Sign out of the console',
  'GET /internal/v1/testcases/{id}': 'Get a test case, with its quarantine',
  'GET /internal/v1/testcases/{id}/results': 'A test case’s results across runs (its history)',
  'GET /internal/v1/projects/{id}/flaky-tests': 'List a project’s flaky tests',
  'GET /internal/v1/projects/{id}/overview':
    'A project’s overview: the latest run of each name, and the series a trend can follow',
  'GET /internal/v1/projects/{id}/overview/trend':
    'A run name’s (and branch’s) latest runs, for its trends',
  'GET /internal/v1/projects/{id}/overview/recurring-failures':
    'Causes of failure that recur across a project’s latest runs',
  'GET /internal/v1/projects/{id}/flaky-tests/export': 'Export a project’s flaky tests as CSV',
  'GET /internal/v1/projects/{id}/quarantine': 'List a project’s quarantined test cases',
  'GET /internal/v1/testruns/{id}/results/export': 'Export a test run’s results as CSV',
  'GET /internal/v1/projects/{id}/failures/search':
    'Search a project’s recent results by error text',
  'GET /internal/v1/organizations/{id}/testcases/search':
    'Search an organization’s test cases across its projects',
  'PUT /internal/v1/projects/{id}/quarantine/{testCaseId}': 'Quarantine a test case',
  'DELETE /internal/v1/projects/{id}/quarantine/{testCaseId}': 'Take a test case out of quarantine',
  'GET /internal/v1/session/options':
    'How the console signs in (operator token or OpenID provider)',
  'GET /internal/v1/session/oidc': 'Start signing in through the OpenID provider',
  'GET /internal/v1/session/oidc/callback': "The OpenID provider's redirect back: open the session",
};

export function summarize(document: OpenAPIObject, summaries = SUMMARIES): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      const summary = summaries[`${method.toUpperCase()} ${path}`];
      if (operation && summary) operation.summary = summary;
    }
  }
}
