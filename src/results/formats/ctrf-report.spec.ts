import {
  expectedFacts,
  factsOfItems,
  FIXTURE_ROOT,
  fixturesOf,
  readFixture,
  refusedField,
} from '../../../test/support/runner-fixtures.js';
import { isCtrfReport, parseCtrfReport } from './ctrf-report.js';

const NO_OPTIONS = { configuration: null, pathRoot: null };

function ctrf(tests: unknown[]) {
  return { results: { tool: { name: 'x' }, tests } };
}

describe('parseCtrfReport', () => {
  const fixtures = fixturesOf('ctrf');

  it('has the CTRF reports to read', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(2);
  });

  it.each(fixtures)('%s: statuses, retries and flaky results', (file, facts) => {
    const document = readFixture(file);
    expect(isCtrfReport(document)).toBe(true);
    const items = parseCtrfReport(document, NO_OPTIONS);
    expect(factsOfItems(items)).toEqual(expectedFacts(facts));
    const ids = new Set(items.map((item) => item.automationId));
    for (const sample of facts.automation_ids_sample) expect(ids).toContain(sample);
  });

  it('reads retryAttempts as the attempts, with their messages', () => {
    const items = parseCtrfReport(readFixture('ctrf/playwright-ctrf.json'), {
      configuration: 'ci',
      pathRoot: `${FIXTURE_ROOT}playwright/`,
    });
    const failing = items.find(
      (item) =>
        item.automationId ===
        'tests/cart.spec.js.chromium > cart.spec.js > Cart › applies a coupon',
    );
    expect(failing).toMatchObject({
      status: 'failed',
      retries: 2,
      configuration: 'ci',
      title: 'applies a coupon',
      message: 'Error: total was <0> & "free" > expected',
    });
    expect(failing?.attempts).toHaveLength(2);
    expect(failing?.attempts[0].message).toBe('Error: total was <0> & "free" > expected');
  });

  it('counts bare retries as failed attempts, keeping at most 20', () => {
    const [item] = parseCtrfReport(
      ctrf([{ name: 'n', status: 'passed', retries: 25, duration: 12 }]),
      NO_OPTIONS,
    );
    expect(item).toMatchObject({
      automationId: 'n',
      status: 'passed',
      retries: 25,
      durationMs: 12,
    });
    expect(item.attempts).toHaveLength(20);
  });

  it('joins a list of suites, and leaves out the parts absent', () => {
    const items = parseCtrfReport(
      ctrf([
        { name: 'n', status: 'other', suite: ['A', 'B'], filePath: 'f.ts' },
        { name: 'n', status: 'pending', suite: '' },
      ]),
      NO_OPTIONS,
    );
    expect(items.map((item) => [item.automationId, item.status])).toEqual([
      ['f.ts.A › B › n', 'blocked'],
      ['n', 'skipped'],
    ]);
  });

  it.each([
    [{ results: { tool: {}, tests: {} } }, 'body.results.tests'],
    [
      ctrf([
        { name: 'a', status: 'passed' },
        { name: 3, status: 'passed' },
      ]),
      'body.results.tests[1].name',
    ],
    [ctrf([{ name: 'a', status: 'broken' }]), 'body.results.tests[0].status'],
    [ctrf([{ name: 'a', status: 'passed', suite: ['x', 1] }]), 'body.results.tests[0].suite[1]'],
    [
      ctrf([{ name: 'a', status: 'passed', retryAttempts: [{ status: 'failed', message: {} }] }]),
      'body.results.tests[0].retryAttempts[0].message',
    ],
    [ctrf([{ name: 'a', status: 'passed', duration: '5' }]), 'body.results.tests[0].duration'],
  ])('refuses a field of the wrong type, naming its path (%#)', (document, field) => {
    expect(refusedField(() => parseCtrfReport(document, NO_OPTIONS))).toBe(field);
  });
});
