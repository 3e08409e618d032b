import { dataOf, type ServiceClient } from './client.js';
import type { TestRun } from './run.js';
import { markdownText, oneLine } from './output.js';
import { mapConcurrently } from './upload.js';
import type { components } from './schema.js';

type Schemas = components['schemas'];

/** The gate's verdict and rules (one call), and its details when they were read. */
export type GateReport = { gate: Schemas['GateResponse'] } & (
  GateDetails | { [K in keyof GateDetails]?: undefined }
);

/**
 * What the run's gate report holds besides the rules: three calls more at least (comparison,
 * failure groups, the project's flaky list) and its flaky tests' lookups.
 */
export interface GateDetails {
  comparison: Schemas['ComparisonResponse'];
  failureGroups: Schemas['FailureGroupResponse'][];
  failureGroupsTotal: number;
  /** The project's flaky tests (CONTRACT §12) that have a result in this run, most flaky first. */
  flakyTests: Schemas['FlakyTestResponse'][];
  /** How many of the project's flaky tests were looked for in the run, of how many. */
  flakyChecked: number;
  flakyTotal: number;
  /** Why the flaky tests were not read (the key may lack `results:read`), when they were not. */
  flakyUnread?: string;
}

/**
 * The project's flaky tests looked for in a run: its most flaky. Every lookup is an API call,
 * and every call counts against the organization's monthly quota (a Pro plan has 1,000), so a
 * gate costs at most this many more.
 */
const FLAKY_CHECKED = 20;
const PAGE = 100;
const FAILURE_GROUPS = 10;

/** The ids of the test cases the run has results for, page by page. */
async function caseIdsOfRun(client: ServiceClient, runId: string, total: number) {
  const pages = await mapConcurrently(
    Array.from({ length: Math.ceil(total / PAGE) }, (_, page) => page * PAGE),
    4,
    async (offset) =>
      dataOf(
        'GET /api/v1/testruns/{id}/results',
        await client.GET('/api/v1/testruns/{id}/results', {
          params: { path: { id: runId }, query: { limit: PAGE, offset } },
        }),
      ).data.map((result) => result.test_case_id),
  );
  return new Set(pages.flat());
}

/** Whether the run has a result for the case. */
async function hasResult(client: ServiceClient, runId: string, testCaseId: string) {
  const page = dataOf(
    'GET /api/v1/testruns/{id}/results',
    await client.GET('/api/v1/testruns/{id}/results', {
      params: { path: { id: runId }, query: { test_case_id: testCaseId, limit: 1 } },
    }),
  );
  return page.pagination.total > 0;
}

/**
 * The project's flaky tests (flip rate or retried passes over their last results, quarantine
 * marked) that this run has results for: the most flaky page of the list, each looked up in the
 * run, or the run's results listed when that takes fewer calls.
 */
async function flakyTestsOf(
  client: ServiceClient,
  run: TestRun,
): Promise<Pick<GateDetails, 'flakyTests' | 'flakyChecked' | 'flakyTotal' | 'flakyUnread'>> {
  const answer = await client.GET('/api/v1/projects/{id}/flaky-tests', {
    params: { path: { id: run.project_id }, query: { limit: FLAKY_CHECKED } },
  });
  // The gate itself needs only testruns:read: a key without results:read still gets it.
  if (answer.response.status === 403) {
    const unread = 'the API key lacks the results:read scope';
    return { flakyTests: [], flakyChecked: 0, flakyTotal: 0, flakyUnread: unread };
  }
  const list = dataOf('GET /api/v1/projects/{id}/flaky-tests', answer);
  // A page of at most what was asked for, whatever the answer holds: each is a call.
  const candidates = list.data.slice(0, FLAKY_CHECKED);
  let inRun: boolean[];
  if (Math.ceil(run.counts.total / PAGE) < candidates.length) {
    const ids = await caseIdsOfRun(client, run.id, run.counts.total);
    inRun = candidates.map((c) => ids.has(c.test_case_id));
  } else {
    inRun = await mapConcurrently(candidates, 4, (c) => hasResult(client, run.id, c.test_case_id));
  }
  return {
    flakyTests: candidates.filter((_, i) => inRun[i]),
    flakyChecked: candidates.length,
    flakyTotal: list.pagination.total,
  };
}

/**
 * The run's quality gate (CONTRACT §12): its verdict and rules, and with `details` (the
 * default) its comparison with the baseline, largest failure groups and flaky tests, read at
 * once.
 */
export async function readGate(
  client: ServiceClient,
  run: TestRun,
): Promise<GateReport & GateDetails>;
export async function readGate(
  client: ServiceClient,
  run: TestRun,
  details: boolean,
): Promise<GateReport>;
export async function readGate(
  client: ServiceClient,
  run: TestRun,
  details = true,
): Promise<GateReport> {
  const path = { params: { path: { id: run.id } } };
  const gate = client.GET('/api/v1/testruns/{id}/gate', path);
  if (!details) return { gate: dataOf('GET /api/v1/testruns/{id}/gate', await gate) };
  const [rules, comparison, failures, flaky] = await Promise.all([
    gate,
    client.GET('/api/v1/testruns/{id}/comparison', path),
    client.GET('/api/v1/testruns/{id}/failures', {
      params: { path: { id: run.id }, query: { limit: FAILURE_GROUPS } },
    }),
    flakyTestsOf(client, run),
  ]);
  const groups = dataOf('GET /api/v1/testruns/{id}/failures', failures);
  return {
    gate: dataOf('GET /api/v1/testruns/{id}/gate', rules),
    comparison: dataOf('GET /api/v1/testruns/{id}/comparison', comparison),
    failureGroups: groups.data.slice(0, FAILURE_GROUPS),
    failureGroupsTotal: groups.pagination.total,
    ...flaky,
  };
}

const caseName = (item: { automation_id: string | null; title: string }) =>
  item.automation_id ?? item.title;
const percent = (rate: number) => `${Math.round(rate * 100)} %`;

/** How the service's values are shown: as they are in a log, escaped in Markdown. */
type Shown = (value: unknown) => string;

/** How flaky a test is, in words: `flips 50 % over 10 results, 2 passed on retry, last failed`. */
function flakiness(test: Schemas['FlakyTestResponse'], text: Shown = String): string {
  const retried = test.retried_passes > 0 ? `, ${text(test.retried_passes)} passed on retry` : '';
  return `flips ${percent(test.flip_rate)} over ${text(test.executions)} results${retried}, last ${text(test.last_status)}`;
}

/** Under the flaky list when the project has more flaky tests than were looked for. */
const flakyNote = (report: GateDetails, text: Shown = String) =>
  report.flakyTotal > report.flakyChecked
    ? `(the project's ${report.flakyChecked} most flaky tests of ${text(report.flakyTotal)} were looked for in this run)`
    : undefined;
const SHOWN = 20;

function listed<T>(title: string, total: number, items: T[], line: (item: T) => string): string[] {
  if (total === 0) return [];
  const lines = [`${title} (${total}):`, ...items.slice(0, SHOWN).map((i) => `  - ${line(i)}`)];
  if (total > Math.min(items.length, SHOWN))
    lines.push(`  … and ${total - Math.min(items.length, SHOWN)} more`);
  return lines;
}

/** The rules a failed gate failed, by name: what a pipeline's log shows first. */
const failedRules = (gate: Schemas['GateResponse']) =>
  gate.rules
    .filter((r) => !r.passed)
    .map((r) => r.name)
    .join(', ');

/** Said where the details were not read. */
const NO_DETAILS =
  "New failures, fixed and flaky tests and failure groups: not read (--details reads them, or see the run's page)";

/** Lines of plain text for a CI log (the printer keeps each on its line, output.ts). */
export function gateLines(report: GateReport): string[] {
  const { gate } = report;
  const verdict = [
    `Gate: ${gate.passed ? 'PASSED' : `FAILED (${failedRules(gate)})`}`,
    ...gate.rules.map((r) => `  ${r.passed ? 'ok  ' : 'FAIL'} ${r.name}: ${r.detail}`),
  ];
  if (report.comparison === undefined) return [...verdict, NO_DETAILS];
  const { comparison, failureGroups } = report;
  const { summary } = comparison;
  const message = (text: string | null) => oneLine(text, 160);
  return [
    ...verdict,
    `Compared with ${comparison.baseline_run_id ? `run ${comparison.baseline_run_id}` : 'no baseline'}: ${summary.new_failures} new failures, ${summary.still_failing} still failing, ${summary.fixed} fixed, ${summary.new_tests} new tests, ${summary.missing_tests} missing, ${summary.flaky} passed on retry (flaky)`,
    ...listed(
      'New failures',
      summary.new_failures,
      comparison.new_failures,
      (i) => `${caseName(i)}${i.message ? `: ${message(i.message)}` : ''}`,
    ),
    ...listed('Fixed', summary.fixed, comparison.fixed, caseName),
    ...listed(
      'Flaky tests',
      report.flakyTests.length,
      report.flakyTests,
      (f) => `${caseName(f)}: ${flakiness(f)}${f.quarantined ? ' [quarantined]' : ''}`,
    ),
    ...(report.flakyTests.length > 0 && flakyNote(report) ? [`  ${flakyNote(report)}`] : []),
    ...(report.flakyUnread ? [`Flaky tests: not read (${report.flakyUnread})`] : []),
    ...listed(
      'Failure groups',
      report.failureGroupsTotal,
      failureGroups,
      (g) => `${g.count} × ${g.failure_type ? `${g.failure_type}: ` : ''}${message(g.message)}`,
    ),
  ];
}

/** Text of a report or the service in Markdown: shown as written, never rendered. */
const cell = (text: unknown) => markdownText(text);
const code = (text: unknown) => `\`${oneLine(text).replace(/`/g, "'")}\``;

/**
 * A Markdown summary of what one job stored, for `$GITHUB_STEP_SUMMARY`, when the run was not
 * read (a shard: the run's counts are the complete job's).
 */
export function storedSummaryLines(
  stored: { name?: string; runId: string; results: number; reports: number },
  jobUrl?: string,
): string[] {
  return [
    `### Test run ${cell(stored.name ?? stored.runId)}`,
    '',
    `This job stored ${cell(stored.results)} results of ${cell(stored.reports)} reports in run ${code(stored.runId)}${jobUrl ? ` ([job](${jobUrl}))` : ''}; the run's counts and gate: the job that completes it.`,
  ];
}

/** A Markdown summary of the run (and its gate when read) for `$GITHUB_STEP_SUMMARY`. */
export function summaryLines(
  run: TestRun,
  report: GateReport | undefined,
  jobUrl?: string,
): string[] {
  const c = run.counts;
  const counts = [c.total, c.passed, c.failed, c.blocked, c.skipped, c.untested, c.flaky];
  const lines = [
    `### Test run ${cell(run.name)}`,
    '',
    '| Total | Passed | Failed | Blocked | Skipped | Untested | Flaky |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${counts.map(cell).join(' | ')} |`,
    '',
    `Run ${code(run.id)}, status ${cell(run.status)}${jobUrl ? ` ([job](${jobUrl}))` : ''}.`,
  ];
  if (report) {
    const { gate } = report;
    lines.push(
      '',
      `**Quality gate: ${gate.passed ? '✅ passed' : '❌ failed'}**${gate.passed ? '' : ` (${cell(failedRules(gate))})`}`,
      '',
    );
    for (const rule of gate.rules)
      lines.push(`- ${rule.passed ? '✅' : '❌'} ${code(rule.name)}: ${cell(rule.detail)}`);
    if (report.comparison === undefined) {
      lines.push('', cell(NO_DETAILS));
      return lines;
    }
    const { comparison } = report;
    const section = (title: string, total: number, items: Schemas['ComparisonItem'][]) => {
      if (total === 0) return;
      lines.push('', `#### ${title} (${cell(total)})`, '');
      for (const item of items.slice(0, SHOWN)) {
        lines.push(`- ${code(caseName(item))}${item.message ? ` — ${cell(item.message)}` : ''}`);
      }
      if (total > SHOWN) lines.push(`- … and ${cell(total - SHOWN)} more`);
    };
    section('New failures', comparison.summary.new_failures, comparison.new_failures);
    section('Fixed', comparison.summary.fixed, comparison.fixed);
    if (report.flakyUnread) lines.push('', `Flaky tests: not read (${report.flakyUnread}).`);
    if (report.flakyTests.length > 0) {
      lines.push('', `#### Flaky tests (${report.flakyTests.length})`, '');
      for (const test of report.flakyTests.slice(0, SHOWN)) {
        lines.push(
          `- ${code(caseName(test))} — ${flakiness(test, cell)}${test.quarantined ? ' (quarantined)' : ''}`,
        );
      }
      if (report.flakyTests.length > SHOWN)
        lines.push(`- … and ${report.flakyTests.length - SHOWN} more`);
      const note = flakyNote(report, cell);
      if (note) lines.push('', note);
    }
    if (comparison.summary.flaky > 0)
      lines.push(
        '',
        `Results of this run that passed on retry (flaky): ${cell(comparison.summary.flaky)}.`,
      );
    if (report.failureGroups.length > 0) {
      lines.push(
        '',
        `#### Failure groups (${cell(report.failureGroupsTotal)})`,
        '',
        '| Count | Failure |',
        '|---:|---|',
      );
      for (const g of report.failureGroups) {
        lines.push(
          `| ${cell(g.count)} | ${cell(`${g.failure_type ? `${g.failure_type}: ` : ''}${g.message ?? ''}`)} |`,
        );
      }
    }
  }
  return lines;
}
