import { ApiError } from '../common/errors/api-error.js';
import { BODY_LISTS, type BodyListsRule } from '../common/http/body-lists.js';
import { listsOverflow } from '../common/http/json-depth.js';
import {
  configurationOf,
  MAX_RESULTS_PER_CALL,
  parseResultItems,
  ResultsPerCallAtMost,
} from './result-items.js';

function fieldErrors(results: unknown[], configuration: string | null = null) {
  try {
    parseResultItems(results, configuration);
  } catch (error) {
    return ((error as ApiError).details as { errors: Array<{ field: string }> }).errors.map(
      (e) => e.field,
    );
  }
  throw new Error('no error');
}

const item = (fields: Record<string, unknown>) => ({
  automation_id: 'a.B',
  status: 'passed',
  ...fields,
});
const failed = (message: string) => ({ status: 'failed', message });

describe('result items: configuration', () => {
  it('is trimmed, 1 to 100 characters; absent, null or blank is none', () => {
    const parse = (configuration: unknown) =>
      parseResultItems([item({ configuration })])[0].configuration;
    expect(parse('  firefox ')).toBe('firefox');
    expect(parse(`  ${'c'.repeat(100)}  `)).toBe('c'.repeat(100));
    expect(parse(undefined)).toBeNull();
    expect(parse(null)).toBeNull();
    expect(parse(' \t ')).toBeNull();
  });

  it('refuses a longer one or another type, naming it', () => {
    expect(fieldErrors([item({ configuration: 'c'.repeat(101) })])).toEqual([
      'results[0].configuration',
    ]);
    expect(fieldErrors([item({}), item({ configuration: 7 })])).toEqual([
      'results[1].configuration',
    ]);
    expect(fieldErrors([item({ configuration: ['a'] })])).toEqual(['results[0].configuration']);
  });

  it('falls back to the call’s for an item that names none', () => {
    const items = parseResultItems(
      [item({ configuration: 'webkit' }), item({}), item({ configuration: '  ' })],
      'linux',
    );
    expect(items.map((i) => i.configuration)).toEqual(['webkit', 'linux', 'linux']);
  });

  it('is what configurationOf says of a value', () => {
    expect(configurationOf(' a ')).toBe('a');
    expect(configurationOf('')).toBeNull();
    expect(configurationOf(1)).toBeUndefined();
    expect(configurationOf('x'.repeat(101))).toBeUndefined();
  });
});

describe('result items: attempts and retries', () => {
  it('keeps the attempts, checked like the item’s fields, and counts the failed or blocked ones', () => {
    const [parsed] = parseResultItems([
      item({
        attempts: [
          { status: 'failed', duration_ms: 5, message: 'm', failure_type: 'T', stack_trace: 's' },
          { status: 'blocked' },
          { status: 'skipped' },
        ],
      }),
    ]);
    expect(parsed.attempts).toEqual([
      { status: 'failed', durationMs: 5, message: 'm', failureType: 'T', stackTrace: 's' },
      { status: 'blocked', durationMs: null, message: null, failureType: null, stackTrace: null },
      { status: 'skipped', durationMs: null, message: null, failureType: null, stackTrace: null },
    ]);
    expect(parsed.retries).toBe(2);
  });

  it('takes retries alone, and none of either as no attempts', () => {
    const [alone, none] = parseResultItems([item({ retries: 3 }), item({ attempts: null })]);
    expect([alone.retries, alone.attempts]).toEqual([3, []]);
    expect([none.retries, none.attempts]).toEqual([0, []]);
  });

  it('keeps the last 20 of more, counting the dropped ones in retries', () => {
    const attempts = Array.from({ length: 25 }, (_, i) => failed(`try ${i}`));
    const [parsed] = parseResultItems([item({ attempts, retries: 25 })]);
    expect(parsed.attempts).toHaveLength(20);
    expect(parsed.attempts[0].message).toBe('try 5');
    expect(parsed.attempts[19].message).toBe('try 24');
    expect(parsed.retries).toBe(25);
  });

  it('refuses retries that disagree with the attempts, naming retries', () => {
    expect(
      fieldErrors([item({ attempts: [failed('a'), { status: 'passed' }], retries: 2 })]),
    ).toEqual(['results[0].retries']);
    expect(parseResultItems([item({ attempts: [failed('a')], retries: 1 })])[0].retries).toBe(1);
  });

  it('names each wrong attempt field by its place', () => {
    expect(
      fieldErrors([
        item({
          attempts: [
            { status: 'won' },
            { status: 'failed', duration_ms: -1, failure_type: 'x'.repeat(1001) },
            'failed',
            { message: 'no status', extra: true },
          ],
          retries: 9,
        }),
      ]),
    ).toEqual([
      'results[0].attempts[0].status',
      'results[0].attempts[1].duration_ms',
      'results[0].attempts[1].failure_type',
      'results[0].attempts[2]',
      'results[0].attempts[3].extra',
      'results[0].attempts[3].status',
    ]);
    expect(fieldErrors([item({ attempts: { status: 'failed' } })])).toEqual([
      'results[0].attempts',
    ]);
    expect(fieldErrors([item({ attempts: Array(1001).fill({ status: 'passed' }) })])).toEqual([
      'results[0].attempts',
    ]);
  });

  it('cuts an attempt’s long stack trace as the item’s', () => {
    const [parsed] = parseResultItems([
      item({ attempts: [{ status: 'failed', stack_trace: 's'.repeat(70_000) }] }),
    ]);
    expect(parsed.attempts[0].stackTrace).toHaveLength(65_536);
  });
});

describe('result items: automation ids', () => {
  it('refuses one longer than 1,000 characters, and keeps one as given, untrimmed', () => {
    expect(fieldErrors([{ automation_id: 'a'.repeat(1001), status: 'passed' }])).toEqual([
      'results[0].automation_id',
    ]);
    const [kept] = parseResultItems([{ automation_id: ` ${'a'.repeat(998)} `, status: 'passed' }]);
    expect(kept.automationId).toBe(` ${'a'.repeat(998)} `);
  });
});

describe('ResultsPerCallAtMost', () => {
  class Routes {
    @ResultsPerCallAtMost()
    submit(): void {}
  }
  const rule: BodyListsRule = Reflect.getMetadata(BODY_LISTS, Routes.prototype.submit);
  const batch = (attempts: number) => {
    const one = JSON.stringify({
      automation_id: 'a',
      status: 'passed',
      defects: ['D-1'],
      attempts: Array(attempts).fill({ status: 'failed' }),
    });
    return Buffer.from(`{"results":[${Array(MAX_RESULTS_PER_CALL).fill(one).join(',')}]}`);
  };

  it('admits a full batch whose items each carry defects and 20 attempts, and no more', () => {
    expect(listsOverflow(batch(20), rule.items, rule.containers)).toBeNull();
    expect(listsOverflow(batch(21), rule.items, rule.containers)).toBe('containers');
  });

  // A Playwright report of 20,000 tests, one project: about 12 objects and lists a test.
  const playwrightReport = (tests: number) => {
    const test = JSON.stringify({
      title: 't',
      ok: true,
      tags: [],
      tests: [
        {
          annotations: [],
          projectName: 'chromium',
          status: 'expected',
          results: [{ status: 'passed', errors: [], stdout: [], stderr: [], attachments: [] }],
        },
      ],
    });
    const specs = Array(tests).fill(test).join(',');
    return Buffer.from(`{"config":{},"suites":[{"title":"a.spec.ts","specs":[${specs}]}]}`);
  };

  it('admits a report of 20,000 tests on a route that takes reports, and not as a command', () => {
    class ReportRoutes {
      @ResultsPerCallAtMost({ orReport: true })
      ingest(): void {}
    }
    const ingest: BodyListsRule = Reflect.getMetadata(BODY_LISTS, ReportRoutes.prototype.ingest);
    const body = playwrightReport(20_000);
    expect(listsOverflow(body, rule.items, rule.containers, rule.report)).toBe('list');
    expect(listsOverflow(body, ingest.items, ingest.containers, ingest.report)).toBeNull();
    expect(listsOverflow(batch(21), ingest.items, ingest.containers, ingest.report)).toBe(
      'containers',
    );
  });
});
