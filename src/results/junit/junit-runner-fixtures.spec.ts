import { readFileSync } from 'node:fs';
import { parseJunitReport } from './junit-parser.js';

// The JUnit reports real runners wrote (test/fixtures/runners), against the facts
// expected.json holds for each, counted independently of the service (count-fixtures.py):
// one result per distinct test and configuration, reruns merged into attempts.
const FIXTURES = 'test/fixtures/runners';

interface Facts {
  format: string;
  statuses: Record<string, number>;
  retries: number;
  flaky: number;
  configurations: string[];
}

const junit = Object.entries(
  JSON.parse(readFileSync(`${FIXTURES}/expected.json`, 'utf8')) as Record<string, Facts>,
).filter(([file]) => file.endsWith('.xml'));

describe('parseJunitReport on the runners’ own reports', () => {
  it('has the JUnit reports to read', () => {
    expect(junit.length).toBeGreaterThanOrEqual(10);
  });

  it.each(junit)('%s: statuses, retries, flaky results and configurations', (file, facts) => {
    const items = parseJunitReport(readFileSync(`${FIXTURES}/${file}`, 'utf8'));
    const statuses: Record<string, number> = {};
    for (const { status } of items) statuses[status] = (statuses[status] ?? 0) + 1;
    expect(statuses).toEqual(facts.statuses);
    expect(items.reduce((sum, item) => sum + item.retries, 0)).toBe(facts.retries);
    expect(items.filter((item) => item.status === 'passed' && item.retries > 0)).toHaveLength(
      facts.flaky,
    );
    const configurations = new Set(items.map((item) => item.configuration));
    configurations.delete(null);
    expect([...configurations].sort()).toEqual(facts.configurations);
    for (const { automationId } of items) expect(automationId?.length).toBeLessThanOrEqual(1000);
  });
});
