import {
  expectedFacts,
  factsOfItems,
  fixturesOf,
  readFixture,
  refusedField,
} from '../../../test/support/runner-fixtures.js';
import { isPlaywrightReport, parsePlaywrightReport } from './playwright-report.js';

const NO_OPTIONS = { configuration: null, pathRoot: null };

describe('parsePlaywrightReport', () => {
  const fixtures = fixturesOf('playwright');

  it('has the Playwright reports to read', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(2);
  });

  it.each(fixtures)(
    '%s: statuses, retries, flaky results, projects as configurations',
    (file, facts) => {
      const document = readFixture(file);
      expect(isPlaywrightReport(document)).toBe(true);
      const items = parsePlaywrightReport(document, NO_OPTIONS);
      expect(factsOfItems(items)).toEqual(expectedFacts(facts));
      const ids = new Set(items.map((item) => item.automationId));
      for (const sample of facts.automation_ids_sample) expect(ids).toContain(sample);
      for (const id of ids) expect(id?.length).toBeLessThanOrEqual(1000);
    },
  );

  it('keeps every result but the last as an attempt, the last as the result', () => {
    const items = parsePlaywrightReport(readFixture('playwright/playwright.json'), NO_OPTIONS);
    const failing = items.find(
      (item) =>
        item.automationId === 'cart.spec.js.Cart › fails on every attempt' &&
        item.configuration === 'chromium',
    );
    expect(failing).toMatchObject({
      status: 'failed',
      retries: 2,
      message: 'Error: attempt 3 failed',
      title: 'fails on every attempt',
      section: 'cart.spec.js › Cart',
    });
    expect(failing?.stackTrace).toContain('cart.spec.js:17:11');
    expect(failing?.attempts.map((attempt) => [attempt.status, attempt.message])).toEqual([
      ['failed', 'Error: attempt 1 failed'],
      ['failed', 'Error: attempt 2 failed'],
    ]);
    const flaky = items.find(
      (item) =>
        item.automationId === 'cart.spec.js.Cart › recovers on retry' &&
        item.configuration === 'firefox',
    );
    expect(flaky).toMatchObject({ status: 'passed', retries: 1, message: null });
  });

  it('takes the call’s configuration when a project has no name', () => {
    const document = {
      config: {},
      suites: [
        {
          title: 'a.spec.ts',
          file: 'a.spec.ts',
          specs: [
            {
              title: 'works',
              file: 'a.spec.ts',
              tests: [
                {
                  projectName: '',
                  status: 'expected',
                  results: [{ status: 'passed', duration: 3.4 }],
                },
              ],
            },
          ],
        },
      ],
    };
    const [item] = parsePlaywrightReport(document, { configuration: 'linux', pathRoot: null });
    expect(item).toMatchObject({
      automationId: 'a.spec.ts.works',
      configuration: 'linux',
      status: 'passed',
      durationMs: 3,
    });
  });

  it('merges the same test reported twice in one project into attempts', () => {
    const spec = (status: string) => ({
      title: 'works',
      file: 'a.spec.ts',
      tests: [
        {
          projectName: 'chromium',
          status: status === 'passed' ? 'expected' : 'unexpected',
          results: [{ status }],
        },
      ],
    });
    const document = {
      config: {},
      suites: [{ title: 'a.spec.ts', file: 'a.spec.ts', specs: [spec('failed'), spec('passed')] }],
    };
    const items = parsePlaywrightReport(document, NO_OPTIONS);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'passed', retries: 1 });
  });

  it('takes path_root off the spec’s file', () => {
    const document = {
      config: {},
      suites: [
        {
          title: 'x',
          specs: [
            {
              title: 'works',
              file: '/work/app/e2e/a.spec.ts',
              tests: [{ projectName: 'p', status: 'skipped', results: [] }],
            },
          ],
        },
      ],
    };
    const [item] = parsePlaywrightReport(document, { configuration: null, pathRoot: '/work/app/' });
    expect(item).toMatchObject({ automationId: 'e2e/a.spec.ts.works', status: 'skipped' });
  });

  it.each([
    [{ config: {}, suites: {} }, 'body.suites'],
    [
      { config: {}, suites: [{ specs: [{ title: 7, tests: [] }] }] },
      'body.suites[0].specs[0].title',
    ],
    [
      {
        config: {},
        suites: [
          {
            suites: [
              {
                title: 'd',
                specs: [
                  { title: 'a', tests: [] },
                  { title: 'b', tests: [] },
                  { title: ['x'], tests: [] },
                ],
              },
            ],
          },
        ],
      },
      'body.suites[0].suites[0].specs[2].title',
    ],
    [
      {
        config: {},
        suites: [{ specs: [{ title: 't', tests: [{ status: 'odd', results: [] }] }] }],
      },
      'body.suites[0].specs[0].tests[0].status',
    ],
    [
      {
        config: {},
        suites: [
          {
            specs: [
              {
                title: 't',
                tests: [{ status: 'expected', results: [{ status: 'passed', error: 'x' }] }],
              },
            ],
          },
        ],
      },
      'body.suites[0].specs[0].tests[0].results[0].error',
    ],
  ])('refuses a field of the wrong type, naming its path (%#)', (document, field) => {
    expect(refusedField(() => parsePlaywrightReport(document, NO_OPTIONS))).toBe(field);
  });
});
