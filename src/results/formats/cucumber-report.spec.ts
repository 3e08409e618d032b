import {
  expectedFacts,
  factsOfItems,
  fixturesOf,
  readFixture,
  refusedField,
} from '../../../test/support/runner-fixtures.js';
import { isCucumberReport, parseCucumberReport } from './cucumber-report.js';

const NO_OPTIONS = { configuration: null, pathRoot: null };

const step = (status: string, extra: Record<string, unknown> = {}) => ({
  keyword: 'Given ',
  name: 'a step',
  result: { status, duration: 2_500_000, ...extra },
});

describe('parseCucumberReport', () => {
  const fixtures = fixturesOf('cucumber');

  it('has the Cucumber report to read', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(1);
  });

  it.each(fixtures)('%s: statuses, outline rows and ids', (file, facts) => {
    const document = readFixture(file);
    expect(isCucumberReport(document)).toBe(true);
    const items = parseCucumberReport(document, { configuration: 'ci', pathRoot: null });
    expect(factsOfItems(items)).toEqual({ ...expectedFacts(facts), configurations: ['ci'] });
    const ids = new Set(items.map((item) => item.automationId));
    for (const sample of facts.automation_ids_sample) expect(ids).toContain(sample);
  });

  it('takes the failed step’s error, and the undefined step’s name', () => {
    const items = parseCucumberReport(readFixture('cucumber/cucumber.json'), NO_OPTIONS);
    const failed = items.find(
      (item) => item.automationId === 'features/cart.feature.cart;applies-a-coupon',
    );
    expect(failed).toMatchObject({
      status: 'failed',
      title: 'applies a coupon',
      section: 'Cart',
      message: 'Error: total was <0> & "free" > expected',
    });
    const blocked = items.find((item) => item.status === 'blocked');
    expect(blocked?.message).toMatch(/^undefined step: /);
  });

  it('tells apart scenarios sharing an id by their line, and counts background steps', () => {
    const document = [
      {
        uri: '/ws/features/a.feature',
        name: 'A',
        elements: [
          { type: 'background', id: '', steps: [step('passed')] },
          { type: 'scenario', id: 'a;', line: 4, name: '', steps: [step('passed')] },
          { type: 'background', id: '', steps: [step('undefined')] },
          { type: 'scenario', id: 'a;', line: 9, name: '', steps: [step('passed')] },
          {
            type: 'scenario',
            id: 'a;b',
            line: 12,
            name: 'b',
            steps: [step('pending')],
            after: [step('failed', { error_message: 'boom' })],
          },
        ],
      },
    ];
    const items = parseCucumberReport(document, { configuration: null, pathRoot: '/ws/' });
    expect(items.map((item) => [item.automationId, item.status, item.durationMs])).toEqual([
      ['features/a.feature.a;:4', 'passed', 5],
      ['features/a.feature.a;:9', 'blocked', 5],
      ['features/a.feature.a;b', 'failed', 5],
    ]);
    expect(items[2].message).toBe('boom');
  });

  it.each([
    [[{ uri: 'f', elements: {} }], 'body[0].elements'],
    [
      [
        { uri: 'f', elements: [] },
        { uri: 2, elements: [] },
      ],
      'body[1].uri',
    ],
    [
      [{ uri: 'f', elements: [{ id: 'x', steps: [step('passed'), { result: { status: 5 } }] }] }],
      'body[0].elements[0].steps[1].result.status',
    ],
    [[{ uri: 'f', elements: [{ id: 'x', steps: [{}] }] }], 'body[0].elements[0].steps[0].result'],
  ])('refuses a field of the wrong type, naming its path (%#)', (document, field) => {
    expect(refusedField(() => parseCucumberReport(document, NO_OPTIONS))).toBe(field);
  });
});
