import { ApiError } from '../../common/errors/api-error.js';
import { durationOf, parseJunitReport } from './junit-parser.js';

function statuses(xml: string) {
  return parseJunitReport(xml).map((item) => [item.automationId, item.status, item.retries]);
}

describe('parseJunitReport', () => {
  it('maps failure and error to failed, skipped to skipped, anything else to passed', () => {
    const xml = `<?xml version="1.0"?>
      <testsuites><testsuite name="s">
        <testcase classname="a.B" name="ok" time="0.5"/>
        <testcase classname="a.B" name="fails"><failure message="expected 1">trace</failure></testcase>
        <testcase classname="a.B" name="errors"><error type="NPE"/></testcase>
        <testcase classname="a.B" name="skips"><skipped message="later"/></testcase>
      </testsuite></testsuites>`;
    expect(statuses(xml)).toEqual([
      ['a.B.ok', 'passed', 0],
      ['a.B.fails', 'failed', 0],
      ['a.B.errors', 'failed', 0],
      ['a.B.skips', 'skipped', 0],
    ]);
    const [ok, fails, errors, skips] = parseJunitReport(xml);
    expect(ok).toMatchObject({ title: 'ok', section: 'a.B', durationMs: 500, message: null });
    expect(fails.message).toBe('expected 1');
    expect(errors.message).toBeNull();
    expect(skips.message).toBe('later');
  });

  it('uses the failure text when there is no message attribute, CDATA and entities included', () => {
    const [item] = parseJunitReport(
      '<testsuite><testcase name="t"><failure><![CDATA[a < b ]] & "c"]]> &amp; &#233;&#x2713;</failure></testcase></testsuite>',
    );
    expect(item.message).toBe('a < b ]] & "c" & é✓');
  });

  it('keeps the failure type, and the text as stack trace when a message attribute is there', () => {
    const xml = `<testsuite>
      <testcase name="typed"><failure type="java.lang.AssertionError" message="expected 1">
        at a.B.typed(B.java:12)
        at a.B.main(B.java:3)
      </failure></testcase>
      <testcase name="untyped"><failure>only text</failure></testcase>
      <testcase name="errors"><error type=" NullPointerException " message="npe"><![CDATA[at x.Y]]></error></testcase>
      <testcase name="typeOnly"><error type="Timeout"/></testcase>
      <testcase name="second"><failure type="First" message="one">t1</failure><error type="Second" message="two">t2</error></testcase>
      <testcase name="skips"><skipped message="later">not a trace</skipped></testcase>
    </testsuite>`;
    const detail = parseJunitReport(xml).map(({ message, failureType, stackTrace }) => ({
      message,
      failureType,
      stackTrace,
    }));
    expect(detail).toEqual([
      {
        message: 'expected 1',
        failureType: 'java.lang.AssertionError',
        stackTrace: 'at a.B.typed(B.java:12)\n        at a.B.main(B.java:3)',
      },
      { message: 'only text', failureType: null, stackTrace: null },
      { message: 'npe', failureType: 'NullPointerException', stackTrace: 'at x.Y' },
      { message: null, failureType: 'Timeout', stackTrace: null },
      // Two failures are two attempts: the last is the result's (the first, an attempt).
      { message: 'two', failureType: 'Second', stackTrace: 't2' },
      { message: 'later', failureType: null, stackTrace: null },
    ]);
  });

  it('cuts a long stack trace and failure type between code points, reading the text in pieces', () => {
    // 70,000 characters with an emoji across the 65,536th, in two pieces (text, then CDATA).
    const trace = `${'t'.repeat(30_000)}<![CDATA[&${'t'.repeat(35_534)}\u{1F600}${'u'.repeat(4_463)}]]>`;
    const type = `${'T'.repeat(999)}\u{1F600}`;
    const [item] = parseJunitReport(
      `<testsuite><testcase name="t"><failure type="${type}" message="m">\n    ${trace}</failure></testcase></testsuite>`,
    );
    expect(item.stackTrace).toBe(`${'t'.repeat(30_000)}&${'t'.repeat(35_534)}`);
    expect(item.stackTrace).toHaveLength(65_535);
    // No lone half of a pair (a lone surrogate is a code point of category Cs).
    expect(item.stackTrace).not.toMatch(/\p{Cs}/u);
    expect(item.failureType).toBe('T'.repeat(999));
    const [whole] = parseJunitReport(
      `<testsuite><testcase name="t"><failure message="m">${'v'.repeat(65_535)}\u{1F600}</failure></testcase></testsuite>`,
    );
    expect(whole.stackTrace).toBe('v'.repeat(65_535));
  });

  it('falls back to the name when classname is missing or empty, and finds nested suites', () => {
    const xml = `<testsuites><testsuite name="outer"><testsuite name="inner">
        <testcase name="lonely"/><testcase classname="" name="empty"/>
        <testcase classname="  pkg.Spaced  " name="x"><properties><property name="k" value="v"/></properties>
          <system-out>hello</system-out></testcase>
      </testsuite></testsuite></testsuites>`;
    expect(parseJunitReport(xml).map((i) => [i.automationId, i.section])).toEqual([
      ['lonely', null],
      ['empty', null],
      ['pkg.Spaced.x', 'pkg.Spaced'],
    ]);
  });

  it('counts Surefire reruns as retries; a passed test with flaky failures is flaky', () => {
    const xml = `<testsuite>
      <testcase classname="C" name="flaky"><flakyFailure message="1"/><flakyError message="2"/><system-out/></testcase>
      <testcase classname="C" name="broken"><failure message="x"/><rerunFailure message="r1"/><rerunError message="r2"/></testcase>
    </testsuite>`;
    expect(statuses(xml)).toEqual([
      ['C.flaky', 'passed', 2],
      ['C.broken', 'failed', 2],
    ]);
  });

  it('ignores failure-like elements nested deeper than the testcase’s children', () => {
    const xml = `<testsuite><testcase name="t"><system-out><failure>not a failure</failure></system-out></testcase></testsuite>`;
    expect(statuses(xml)).toEqual([['t', 'passed', 0]]);
  });

  it('reads durations in seconds, with thousands separators, and ignores nonsense', () => {
    expect(durationOf('1.2345')).toBe(1235);
    expect(durationOf('1,234.567')).toBe(1234567);
    expect(durationOf('0')).toBe(0);
    expect(durationOf('abc')).toBeNull();
    expect(durationOf('-1')).toBeNull();
    expect(durationOf(undefined)).toBeNull();
  });

  it('rejects malformed XML naming the body with line and column', () => {
    const error = (() => {
      try {
        parseJunitReport('<testsuite>\n  <testcase name="a">\n</testsuite>');
      } catch (e) {
        return e as ApiError;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect(error.details.field).toBe('body');
    expect(error.message).toMatch(/line 3, column \d+/);
  });

  it.each([
    ['an empty body', ''],
    ['another root element', '<html><body/></html>'],
    ['text that is not XML', 'PASS all tests'],
  ])('rejects %s', (_name, xml) => {
    expect(() => parseJunitReport(xml)).toThrow(ApiError);
  });

  it('does not resolve external entities', () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY ext SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&ext;"/></testsuite>`;
    expect(() => parseJunitReport(xml)).toThrow(ApiError);
  });

  it('parses a large report in linear time: four times the cases, about four times the time', () => {
    const report = (n: number) =>
      `<testsuite>${Array.from(
        { length: n },
        (_, i) =>
          `<testcase classname="big.Suite" name="t${i}" time="0.01"><failure>x</failure></testcase>`,
      ).join('')}</testsuite>`;
    const [small, large] = [report(5000), report(20000)];
    // CPU time, not wall time: other processes on the machine take turns with this one, and a
    // longer run is interrupted more often. The least of five runs each.
    const fastest = (xml: string, cases: number) =>
      Math.min(
        ...[1, 2, 3, 4, 5].map(() => {
          const started = process.cpuUsage();
          expect(parseJunitReport(xml)).toHaveLength(cases);
          const used = process.cpuUsage(started);
          return used.user + used.system;
        }),
      );
    fastest(small, 5000); // warm-up
    const ratio = fastest(large, 20000) / fastest(small, 5000);
    // Linear is 4; a quadratic step would make it 16.
    expect(ratio).toBeLessThan(10);
  });
});
