import { readFileSync } from 'node:fs';
import { ApiError } from '../../src/common/errors/api-error.js';
import type { ResultItem } from '../../src/results/result-items.js';

/**
 * The reports real runners wrote (test/fixtures/runners) and the facts expected.json holds for
 * each, counted independently of the service (count-fixtures.py).
 */
export const RUNNER_FIXTURES = 'test/fixtures/runners';

/** Where the runners ran: the start of every absolute path in the reports. */
export const FIXTURE_ROOT = '/tmp/tm-fixture-suites/';

export interface FixtureFacts {
  format: string;
  runner: string;
  records: number;
  distinct_tests: number;
  statuses: Record<string, number>;
  retries: number;
  flaky: number;
  configurations: string[];
  automation_ids_sample: string[];
}

const ALL = JSON.parse(readFileSync(`${RUNNER_FIXTURES}/expected.json`, 'utf8')) as Record<
  string,
  FixtureFacts
>;

/** The fixtures of one format, as [file, facts] pairs. */
export function fixturesOf(format: string): Array<[string, FixtureFacts]> {
  return Object.entries(ALL).filter(([, facts]) => facts.format === format);
}

/** A fixture's document, parsed. */
export function readFixture(file: string): unknown {
  return JSON.parse(readFileSync(`${RUNNER_FIXTURES}/${file}`, 'utf8'));
}

/** What result items come to, in expected.json's terms. */
export function factsOfItems(items: ResultItem[]) {
  const statuses: Record<string, number> = {};
  for (const { status } of items) statuses[status] = (statuses[status] ?? 0) + 1;
  const configurations = new Set(items.map((item) => item.configuration));
  configurations.delete(null);
  return {
    distinct_tests: items.length,
    statuses,
    retries: items.reduce((sum, item) => sum + item.retries, 0),
    flaky: items.filter((item) => item.status === 'passed' && item.retries > 0).length,
    configurations: [...configurations].sort(),
  };
}

/** The facts of expected.json that result items are checked against. */
export function expectedFacts(facts: FixtureFacts) {
  const { distinct_tests, statuses, retries, flaky, configurations } = facts;
  return { distinct_tests, statuses, retries, flaky, configurations };
}

/** The field a report parser's 400 names, or undefined when it refuses nothing. */
export function refusedField(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return (error.details as { field?: string }).field;
    throw error;
  }
  return undefined;
}
