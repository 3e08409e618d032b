import {
  fixture,
  idsAndStatuses,
  NO_OPTIONS,
  refusal,
} from '../../../test/support/report-fixtures.js';
import { MAX_AUTOMATION_ID } from '../automation-id.js';
import { RESULT_ITEM_FIELDS } from '../result-item-fields.js';
import { durationOf, parseTrxReport } from './trx-parser.js';

const trx = (results: string, definitions = '') =>
  `<?xml version="1.0" encoding="utf-8"?>
  <TestRun id="1" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
    <Results>${results}</Results>
    <TestDefinitions>${definitions}</TestDefinitions>
  </TestRun>`;
const result = (testId: string, testName: string, outcome: string, inner = '') =>
  `<UnitTestResult testId="${testId}" testName="${testName}" outcome="${outcome}" duration="00:00:00.5">${inner}</UnitTestResult>`;
const definition = (id: string, className: string) =>
  `<UnitTest id="${id}" name="x"><TestMethod className="${className}" name="x" /></UnitTest>`;

describe('parseTrxReport', () => {
  it('reads an MSTest report: ids after the class, statuses, messages, traces, data rows', () => {
    const items = parseTrxReport(fixture('trx/mstest.trx'), NO_OPTIONS);
    expect(idsAndStatuses(items)).toEqual([
      ['Calc.Tests.CalculatorTests.Add_ReturnsSum', 'passed'],
      ['Calc.Tests.CalculatorTests.Divide_ByZero_Throws', 'failed'],
      ['Calc.Tests.Zahlen.ParserTests.Parse_Überlänge_Ω', 'failed'],
      // An assembly-qualified class (older MSTest) is its name before the first comma.
      ['Calc.Tests.ExportTests.Export_ToPdf', 'skipped'],
      ['Calc.Tests.CalculatorTests.Rounding_IsBankers', 'skipped'],
      // A data-driven test's rows are its results; the parent that sums them up is not.
      ['Calc.Tests.CalculatorTests.Multiply (2,3,6)', 'passed'],
      ['Calc.Tests.CalculatorTests.Multiply (2,-3,6)', 'failed'],
    ]);
    expect(items[1]).toMatchObject({
      title: 'Divide_ByZero_Throws',
      section: 'Calc.Tests.CalculatorTests',
      durationMs: 250,
      message:
        'Assert.ThrowsException failed. Expected exception type:<System.DivideByZeroException>. Actual exception type:<System.OverflowException>.',
      failureType: null,
      stackTrace: expect.stringMatching(
        /^at Calc\.Tests\.CalculatorTests\.Divide_ByZero_Throws\(\) in .*line 42$/,
      ),
      configuration: null,
    });
    expect(items[3].message).toBe('Needs a printer driver');
  });

  it('joins results with definitions written before them, and keeps full names as they are', () => {
    const items = parseTrxReport(fixture('trx/xunit-adapter.trx'), NO_OPTIONS);
    expect(idsAndStatuses(items)).toEqual([
      ['Calc.Tests.MathTheories.Add(a: 1, b: 2, expected: 3)', 'passed'],
      ['Calc.Tests.MathTheories.Add(a: -1, b: 1, expected: 0)', 'failed'],
      ['Calc.Tests.NetworkTests.Fetch_Retries', 'passed'],
      // A method without a class: its testName alone.
      ['Smoke: ☃ snowman renders', 'skipped'],
    ]);
    expect(items[0]).toMatchObject({
      title: 'Add(a: 1, b: 2, expected: 3)',
      section: 'Calc.Tests.MathTheories',
    });
    // The same test twice: one execution, its first run a failed attempt.
    expect(items[2]).toMatchObject({ retries: 1, durationMs: 500 });
    expect(items[2].attempts).toEqual([
      expect.objectContaining({
        status: 'failed',
        durationMs: 2000,
        message: 'System.TimeoutException : The operation has timed out.',
      }),
    ]);
    expect(items[3]).toMatchObject({ durationMs: 86_400_000, section: null });
  });

  it('names the same tests whether the definitions come before or after the results', () => {
    const results = result('a', 'Adds', 'Passed') + result('b', 'Ns.C.Full', 'Failed');
    const definitions = definition('a', 'Ns.C') + definition('b', 'Ns.C');
    const after = parseTrxReport(trx(results, definitions), NO_OPTIONS);
    const before = parseTrxReport(
      `<TestRun><TestDefinitions>${definitions}</TestDefinitions><Results>${results}</Results></TestRun>`,
      NO_OPTIONS,
    );
    expect(idsAndStatuses(after)).toEqual([
      ['Ns.C.Adds', 'passed'],
      ['Ns.C.Full', 'failed'],
    ]);
    expect(idsAndStatuses(before)).toEqual(idsAndStatuses(after));
  });

  it('maps every outcome vstst.xsd names, and refuses one it does not', () => {
    const outcomes: Array<[string, string]> = [
      ['Passed', 'passed'],
      ['PassedButRunAborted', 'passed'],
      ['Warning', 'passed'],
      ['Failed', 'failed'],
      ['Error', 'failed'],
      ['Timeout', 'failed'],
      ['Aborted', 'failed'],
      ['NotExecuted', 'skipped'],
      ['Inconclusive', 'skipped'],
      ['Pending', 'skipped'],
      ['InProgress', 'untested'],
    ];
    const xml = trx(outcomes.map(([outcome], i) => result(`t${i}`, outcome, outcome)).join(''));
    expect(parseTrxReport(xml, NO_OPTIONS).map((item) => [item.title, item.status])).toEqual(
      outcomes,
    );
    const noOutcome = trx('<UnitTestResult testId="n" testName="Cut short" />');
    expect(parseTrxReport(noOutcome, NO_OPTIONS)[0].status).toBe('untested');
    const error = refusal(() => parseTrxReport(trx(result('t', 'Odd', 'Sideways')), NO_OPTIONS));
    expect(error.details.field).toBe('body');
    expect(error.message).toMatch(/"Odd" has the outcome "Sideways"/);
  });

  it("gives every result the call's configuration", () => {
    const items = parseTrxReport(trx(result('a', 'A', 'Passed')), {
      configuration: 'windows / net8',
      pathRoot: null,
    });
    expect(items[0].configuration).toBe('windows / net8');
  });

  it('keeps only what is stored of a huge trace, and shortens a long id with its hash', () => {
    const longName = 'T'.repeat(MAX_AUTOMATION_ID + 50);
    const trace = 'x'.repeat(RESULT_ITEM_FIELDS.stack_trace.maxLength * 3);
    const items = parseTrxReport(
      trx(
        result(
          'a',
          longName,
          'Failed',
          `<Output><ErrorInfo><Message>m</Message><StackTrace>${trace}</StackTrace></ErrorInfo></Output>`,
        ),
      ),
      NO_OPTIONS,
    );
    expect(items[0].stackTrace).toHaveLength(RESULT_ITEM_FIELDS.stack_trace.maxLength);
    expect(items[0].automationId).toHaveLength(MAX_AUTOMATION_ID);
    expect(items[0].automationId).toMatch(/~[0-9a-f]{16}$/);
  });

  it('reads durations as .NET writes them', () => {
    expect(durationOf('00:00:01.5')).toBe(1500);
    expect(durationOf('00:01:00')).toBe(60_000);
    expect(durationOf('1.02:00:00.0010000')).toBe(93_600_001);
    expect(durationOf('soon')).toBeNull();
    expect(durationOf('')).toBeNull();
  });

  it('refuses malformed XML naming the line and column', () => {
    const error = refusal(() => parseTrxReport('<TestRun>\n<Results>\n</TestRun>', NO_OPTIONS));
    expect(error.details.field).toBe('body');
    expect(error.message).toMatch(/not well-formed TRX .* at line 3, column \d+/);
  });
});
