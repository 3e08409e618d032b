import { dataOf, type ServiceClient } from './client.js';
import type { TestRun } from './run.js';
import type { components } from './schema.js';

type Schemas = components['schemas'];

export interface GateReport {
  gate: Schemas['GateResponse'];
  comparison: Schemas['ComparisonResponse'];
  failureGroups: Schemas['FailureGroupResponse'][];
  failureGroupsTotal: number;
}

/** The run's gate, comparison with its baseline and largest failure groups (CONTRACT §12). */
export async function readGate(client: ServiceClient, runId: string): Promise<GateReport> {
  const path = { params: { path: { id: runId } } };
  const [gate, comparison, failures] = await Promise.all([
    client.GET('/api/v1/testruns/{id}/gate', path),
    client.GET('/api/v1/testruns/{id}/comparison', path),
    client.GET('/api/v1/testruns/{id}/failures', {
      params: { path: { id: runId }, query: { limit: 10 } },
    }),
  ]);
  const groups = dataOf('GET /api/v1/testruns/{id}/failures', failures);
  return {
    gate: dataOf('GET /api/v1/testruns/{id}/gate', gate),
    comparison: dataOf('GET /api/v1/testruns/{id}/comparison', comparison),
    failureGroups: groups.data,
    failureGroupsTotal: groups.pagination.total,
  };
}

const oneLine = (text: string | null, max = 160) => {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};
const caseName = (item: Schemas['ComparisonItem']) => item.automation_id ?? item.title;
const SHOWN = 20;

function listed<T>(title: string, total: number, items: T[], line: (item: T) => string): string[] {
  if (total === 0) return [];
  const lines = [`${title} (${total}):`, ...items.slice(0, SHOWN).map((i) => `  - ${line(i)}`)];
  if (total > Math.min(items.length, SHOWN))
    lines.push(`  … and ${total - Math.min(items.length, SHOWN)} more`);
  return lines;
}

/** Plain text for a CI log. */
export function gateText(report: GateReport): string {
  const { gate, comparison, failureGroups } = report;
  const { summary } = comparison;
  return [
    `Gate: ${gate.passed ? 'PASSED' : 'FAILED'}`,
    ...gate.rules.map((r) => `  ${r.passed ? 'ok  ' : 'FAIL'} ${r.name}: ${r.detail}`),
    `Compared with ${comparison.baseline_run_id ? `run ${comparison.baseline_run_id}` : 'no baseline'}: ${summary.new_failures} new failures, ${summary.still_failing} still failing, ${summary.fixed} fixed, ${summary.new_tests} new tests, ${summary.missing_tests} missing, ${summary.flaky} flaky`,
    ...listed(
      'New failures',
      summary.new_failures,
      comparison.new_failures,
      (i) => `${caseName(i)}${i.message ? `: ${oneLine(i.message)}` : ''}`,
    ),
    ...listed('Fixed', summary.fixed, comparison.fixed, caseName),
    ...listed(
      'Failure groups',
      report.failureGroupsTotal,
      failureGroups,
      (g) => `${g.count} × ${g.failure_type ? `${g.failure_type}: ` : ''}${oneLine(g.message)}`,
    ),
  ].join('\n');
}

const cell = (text: string) => oneLine(text, 200).replace(/\|/g, '\\|');
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** A Markdown summary of the run (and its gate when read) for `$GITHUB_STEP_SUMMARY`. */
export function summaryMarkdown(
  run: TestRun,
  report: GateReport | undefined,
  jobUrl?: string,
): string {
  const c = run.counts;
  const lines = [
    `### Test run ${cell(run.name)}`,
    '',
    '| Total | Passed | Failed | Blocked | Skipped | Untested | Flaky |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${c.total} | ${c.passed} | ${c.failed} | ${c.blocked} | ${c.skipped} | ${c.untested} | ${c.flaky} |`,
    '',
    `Run \`${run.id}\`, status ${run.status}${jobUrl ? ` ([job](${jobUrl}))` : ''}.`,
  ];
  if (report) {
    const { gate, comparison } = report;
    lines.push('', `**Quality gate: ${gate.passed ? '✅ passed' : '❌ failed'}**`, '');
    for (const rule of gate.rules)
      lines.push(`- ${rule.passed ? '✅' : '❌'} ${code(rule.name)}: ${cell(rule.detail)}`);
    const section = (title: string, total: number, items: Schemas['ComparisonItem'][]) => {
      if (total === 0) return;
      lines.push('', `#### ${title} (${total})`, '');
      for (const item of items.slice(0, SHOWN)) {
        lines.push(`- ${code(caseName(item))}${item.message ? ` — ${cell(item.message)}` : ''}`);
      }
      if (total > SHOWN) lines.push(`- … and ${total - SHOWN} more`);
    };
    section('New failures', comparison.summary.new_failures, comparison.new_failures);
    section('Fixed', comparison.summary.fixed, comparison.fixed);
    if (comparison.summary.flaky > 0)
      lines.push('', `Flaky results in this run: ${comparison.summary.flaky}.`);
    if (report.failureGroups.length > 0) {
      lines.push(
        '',
        `#### Failure groups (${report.failureGroupsTotal})`,
        '',
        '| Count | Failure |',
        '|---:|---|',
      );
      for (const g of report.failureGroups) {
        lines.push(
          `| ${g.count} | ${cell(`${g.failure_type ? `${g.failure_type}: ` : ''}${g.message ?? ''}`)} |`,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
