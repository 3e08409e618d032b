import {
  expectedFacts,
  factsOfItems,
  FIXTURE_ROOT,
  fixturesOf,
  readFixture,
  refusedField,
} from '../../../test/support/runner-fixtures.js';
import { isJestReport, parseJestReport } from './jest-report.js';

const NO_OPTIONS = { configuration: null, pathRoot: null };

describe('parseJestReport', () => {
  const fixtures = fixturesOf('jest');

  it('has the Jest and Vitest reports to read', () => {
    expect(fixtures.map(([file]) => file)).toEqual(
      expect.arrayContaining(['jest/jest.json', 'vitest/vitest.json']),
    );
  });

  it.each(fixtures)('%s: statuses, retries and flaky results', (file, facts) => {
    const document = readFixture(file);
    expect(isJestReport(document)).toBe(true);
    const items = parseJestReport(document, NO_OPTIONS);
    // Vitest writes no `invocations`: CONTRACT §14 reads no attempts from it, though its
    // `failureMessages` (counted in expected.json) show them; its JUnit report carries them.
    const expected =
      file === 'vitest/vitest.json'
        ? { ...expectedFacts(facts), retries: 0, flaky: 0 }
        : expectedFacts(facts);
    expect(factsOfItems(items)).toEqual(expected);
    const ids = new Set(items.map((item) => item.automationId));
    for (const sample of facts.automation_ids_sample) expect(ids).toContain(sample);
  });

  it('takes the earlier attempts’ messages from retryReasons', () => {
    const items = parseJestReport(readFixture('jest/jest-log-errors-before-retry.json'), {
      configuration: 'node 24',
      pathRoot: `${FIXTURE_ROOT}jest/`,
    });
    const failing = items.find(
      (item) => item.automationId === 'cart.test.js.Cart › fails on every attempt',
    );
    expect(failing).toMatchObject({
      status: 'failed',
      retries: 2,
      configuration: 'node 24',
      title: 'fails on every attempt',
      section: 'cart.test.js › Cart',
      message: 'Error: attempt 3 failed',
    });
    expect(failing?.stackTrace).toMatch(/^Error: attempt 3 failed\n\s+at /);
    expect(failing?.attempts.map((attempt) => attempt.message)).toEqual([
      'Error: attempt 1 failed',
      'Error: attempt 2 failed',
    ]);
  });

  it('counts invocations without retryReasons as failed attempts', () => {
    const items = parseJestReport(readFixture('jest/jest.json'), NO_OPTIONS);
    const flaky = items.find((item) =>
      item.automationId?.endsWith('cart.test.js.Cart › recovers on retry'),
    );
    expect(flaky).toMatchObject({ status: 'passed', retries: 1, message: null });
    expect(flaky?.attempts).toEqual([
      { status: 'failed', durationMs: null, message: null, failureType: null, stackTrace: null },
    ]);
  });

  it('reads no attempts from Vitest, which writes no invocations, and keeps the last failure', () => {
    const items = parseJestReport(readFixture('vitest/vitest.json'), NO_OPTIONS);
    const failing = items.find((item) =>
      item.automationId?.endsWith('Cart › fails on every attempt'),
    );
    expect(failing?.attempts).toEqual([]);
    expect(failing?.retries).toBe(0);
    expect(failing?.message).toBe('Error: attempt 3 failed');
  });

  it('counts a huge invocations without building an attempt per invocation', () => {
    const document = {
      testResults: [
        {
          name: 'f.test.js',
          assertionResults: [
            {
              title: 't',
              ancestorTitles: [],
              status: 'passed',
              invocations: 1e9,
              failureMessages: [],
            },
          ],
        },
      ],
    };
    const [item] = parseJestReport(document, NO_OPTIONS);
    expect(item).toMatchObject({ automationId: 'f.test.js.t', status: 'passed', retries: 1000 });
    expect(item.attempts).toHaveLength(20);
  });

  it.each([
    [{ testResults: {} }, 'body.testResults'],
    [{ testResults: [{ name: 1, assertionResults: [] }] }, 'body.testResults[0].name'],
    [
      {
        testResults: [
          {
            name: 'f',
            assertionResults: [{ title: 't', status: 'passed', ancestorTitles: ['a', 2] }],
          },
        ],
      },
      'body.testResults[0].assertionResults[0].ancestorTitles[1]',
    ],
    [
      { testResults: [{ name: 'f', assertionResults: [{ title: 't', status: 'weird' }] }] },
      'body.testResults[0].assertionResults[0].status',
    ],
    [
      {
        testResults: [
          { name: 'f', assertionResults: [{ title: 't', status: 'failed', failureMessages: 'x' }] },
        ],
      },
      'body.testResults[0].assertionResults[0].failureMessages',
    ],
  ])('refuses a field of the wrong type, naming its path (%#)', (document, field) => {
    expect(refusedField(() => parseJestReport(document, NO_OPTIONS))).toBe(field);
  });
});
