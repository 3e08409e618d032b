import {
  fixture,
  idsAndStatuses,
  NO_OPTIONS,
  refusal,
} from '../../../test/support/report-fixtures.js';
import { parseNunitReport } from './nunit-parser.js';

const testCase = (fullname: string, result: string, body = '', extra = '') =>
  `<test-case id="1" name="${fullname}" fullname="${fullname}" runstate="Runnable" seed="1" result="${result}" duration="0.25" asserts="0"${extra}>${body}</test-case>`;
const nunit = (cases: string) =>
  `<test-run id="0"><test-suite type="Assembly">${cases}</test-suite></test-run>`;

describe('parseNunitReport', () => {
  it('reads an NUnitLite report: full names, parameterised rows apart, every result kind', () => {
    const items = parseNunitReport(fixture('nunit/nunitlite.xml'), NO_OPTIONS);
    expect(idsAndStatuses(items)).toEqual([
      ['Calc.Tests.CalculatorTests.Add_ReturnsSum', 'passed'],
      ['Calc.Tests.CalculatorTests.Divide(6,3)', 'passed'],
      ['Calc.Tests.CalculatorTests.Divide(1,0)', 'failed'],
      ['Calc.Tests.CalculatorTests.Rounding_HalfEven', 'failed'],
      ['Calc.Tests.CalculatorTests.Export_ToPdf', 'skipped'],
      ['Calc.Tests.CalculatorTests.Memory_Is_Freed', 'passed'],
      ['Calc.Tests.ZählerTests.Zählt_Größen_Ω', 'passed'],
      ['Calc.Tests.ZählerTests.Depends_On_Locale', 'retest'],
      ['Calc.Tests.ZählerTests.Obsolete_Api_Warns', 'passed'],
    ]);
    expect(items[2]).toMatchObject({
      title: 'Divide(1,0)',
      section: 'Calc.Tests.CalculatorTests',
      durationMs: 200,
      message: 'System.DivideByZeroException : Attempted to divide by zero.',
      // NUnit labels an unexpected exception `Error`.
      failureType: 'Error',
      stackTrace: expect.stringMatching(/^at Calc\.Calculator\.Divide.*\n.*line 31$/),
    });
    expect(items[3].message).toBe('Expected: 2.5m\n  But was:  3m');
    expect(items[3].failureType).toBeNull();
    expect(items[4].message).toBe('Needs a printer driver');
    expect(items[7].message).toBe('Locale de-CH is not installed');
  });

  it('reads nunit3-console output with its engine attributes and a byte-order mark', () => {
    const items = parseNunitReport(fixture('nunit/nunit3-console.xml'), NO_OPTIONS);
    expect(idsAndStatuses(items)).toEqual([
      ['Shop.Tests.CartTests("EUR").Total_IncludesTax', 'passed'],
      ['Shop.Tests.CartTests("JPY").Total_IncludesTax', 'passed'],
      ['Shop.Tests.注文Tests.Quantity_IsPositive(0)', 'failed'],
      ['Shop.Tests.注文Tests.Quantity_IsPositive(-1)', 'failed'],
      ['Shop.Tests.注文Tests.Checkout_Slow', 'skipped'],
    ]);
    expect(items[3].failureType).toBe('Cancelled');
    expect(items[4].message).toBeNull();
  });

  it("does not take a suite's failure, or an assertion's, for a test's", () => {
    const xml = `<test-run><test-suite type="TestFixture">
      <failure><message>One or more child tests had errors</message></failure>
      ${testCase('A.ok', 'Passed', '<assertions><assertion result="Passed"><message>fine</message></assertion></assertions>')}
    </test-suite></test-run>`;
    const [item] = parseNunitReport(xml, NO_OPTIONS);
    expect(item).toMatchObject({ status: 'passed', message: null, stackTrace: null });
  });

  it('refuses a result NUnit does not write', () => {
    const error = refusal(() => parseNunitReport(nunit(testCase('A.b', 'Exploded')), NO_OPTIONS));
    expect(error.details.field).toBe('body');
    expect(error.message).toMatch(/"A\.b" has the result "Exploded"/);
  });

  it('merges the same test reported twice into one execution with attempts', () => {
    const xml = nunit(
      testCase('A.flaky', 'Failed', '<failure><message>first</message></failure>') +
        testCase('A.flaky', 'Passed'),
    );
    const items = parseNunitReport(xml, { configuration: 'linux', pathRoot: null });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'passed', retries: 1, configuration: 'linux' });
    expect(items[0].attempts[0]).toMatchObject({ status: 'failed', message: 'first' });
  });

  it('refuses a document of another root', () => {
    const error = refusal(() => parseNunitReport('<test-results/>', NO_OPTIONS));
    expect(error.message).toMatch(/root element is <test-results>, not <test-run>/);
  });
});
