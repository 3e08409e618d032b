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

  it('reads several failures in one testcase (Vitest retries) as failed attempts, the last final', () => {
    const xml = `<testsuite><testcase classname="v" name="t" time="0.3">
        <failure message="first" type="AssertionError">at one</failure>
        <error type="TypeError">second text</error>
        <failure message="third" type="Timeout">at three</failure>
      </testcase></testsuite>`;
    const [item] = parseJunitReport(xml);
    expect(item).toMatchObject({
      status: 'failed',
      message: 'third',
      failureType: 'Timeout',
      stackTrace: 'at three',
      retries: 2,
      durationMs: 300,
    });
    expect(item.attempts).toEqual([
      {
        status: 'failed',
        durationMs: null,
        message: 'first',
        failureType: 'AssertionError',
        stackTrace: 'at one',
      },
      {
        status: 'failed',
        durationMs: null,
        message: 'second text',
        failureType: 'TypeError',
        stackTrace: null,
      },
    ]);
  });

  it('reads Surefire re-run records as failed attempts before the final status, with their detail', () => {
    const xml = `<testsuite>
      <testcase classname="C" name="flaky" time="1">
        <flakyFailure message="boom" type="java.lang.AssertionError" time="0.25">
          <stackTrace>java.lang.AssertionError: boom
	at C.flaky(C.java:9)</stackTrace>
          <system-out>not the trace</system-out>
        </flakyFailure>
        <flakyError type="java.lang.NullPointerException">npe text</flakyError>
      </testcase>
      <testcase classname="C" name="broken">
        <failure message="final" type="F">final trace</failure>
        <rerunFailure message="r1" type="R"><stackTrace>r1 trace</stackTrace></rerunFailure>
        <rerunError message="r2" type="E"/>
      </testcase>
    </testsuite>`;
    const [flaky, broken] = parseJunitReport(xml);
    expect(flaky).toMatchObject({ status: 'passed', retries: 2, message: null, stackTrace: null });
    expect(flaky.attempts).toEqual([
      {
        status: 'failed',
        durationMs: 250,
        message: 'boom',
        failureType: 'java.lang.AssertionError',
        stackTrace: 'java.lang.AssertionError: boom\n\tat C.flaky(C.java:9)',
      },
      {
        status: 'failed',
        durationMs: null,
        message: 'npe text',
        failureType: 'java.lang.NullPointerException',
        stackTrace: null,
      },
    ]);
    expect(broken).toMatchObject({
      status: 'failed',
      retries: 2,
      message: 'final',
      failureType: 'F',
      stackTrace: 'final trace',
    });
    expect(broken.attempts.map((a) => [a.message, a.failureType, a.stackTrace])).toEqual([
      ['r1', 'R', 'r1 trace'],
      ['r2', 'E', null],
    ]);
  });

  it('keeps the last 20 attempts of a testcase, counting the dropped ones in retries', () => {
    const failures = Array.from({ length: 26 }, (_, i) => `<failure message="try ${i}"/>`).join('');
    const [item] = parseJunitReport(
      `<testsuite><testcase name="t">${failures}</testcase></testsuite>`,
    );
    expect(item.message).toBe('try 25');
    expect(item.retries).toBe(25);
    expect(item.attempts.map((a) => a.message)).toEqual(
      Array.from({ length: 20 }, (_, i) => `try ${i + 5}`),
    );
    // The final failure is kept even when more than 20 re-run records follow it.
    const reruns = Array.from({ length: 30 }, (_, i) => `<rerunFailure message="r${i}"/>`).join('');
    const [surefire] = parseJunitReport(
      `<testsuite><testcase name="t"><failure message="final"/>${reruns}</testcase></testsuite>`,
    );
    expect([surefire.message, surefire.retries, surefire.attempts.length]).toEqual([
      'final',
      30,
      20,
    ]);
    expect(surefire.attempts[19].message).toBe('r29');
  });

  describe('configurations from testsuite hostnames', () => {
    const playwright = `<testsuites>
      <testsuite name="a.spec.ts" hostname="chromium">
        <testcase classname="a.spec.ts" name="logs in"/>
        <testcase classname="a.spec.ts" name="only here"/>
      </testsuite>
      <testsuite name="a.spec.ts" hostname=" firefox ">
        <testcase classname="a.spec.ts" name="logs in"><failure message="x"/></testcase>
      </testsuite>
      <testsuite name="b.spec.ts"><testcase classname="b.spec.ts" name="no host"/></testsuite>
    </testsuites>`;
    const configurations = (xml: string, call: string | null = null) =>
      parseJunitReport(xml, call).map((i) => [i.automationId, i.configuration, i.status]);

    it('are every result’s when a test appears under two hostnames; the call’s fills the rest', () => {
      expect(configurations(playwright, 'ci')).toEqual([
        ['a.spec.ts.logs in', 'chromium', 'passed'],
        ['a.spec.ts.only here', 'chromium', 'passed'],
        ['a.spec.ts.logs in', 'firefox', 'failed'],
        ['b.spec.ts.no host', 'ci', 'passed'],
      ]);
    });

    it('are ignored when no test appears under two of them (machine names)', () => {
      const machines = `<testsuites>
        <testsuite hostname="runner-1"><testcase name="a"/></testsuite>
        <testsuite hostname="runner-2"><testcase name="b"/></testsuite>
      </testsuites>`;
      expect(configurations(machines)).toEqual([
        ['a', null, 'passed'],
        ['b', null, 'passed'],
      ]);
      expect(configurations(machines, 'linux').map(([, c]) => c)).toEqual(['linux', 'linux']);
      // One hostname: the same test twice is a rerun, not two configurations.
      const one = `<testsuites><testsuite hostname="h"><testcase name="a"><failure/></testcase></testsuite>
        <testsuite hostname="h"><testcase name="a"/></testsuite></testsuites>`;
      expect(configurations(one)).toEqual([['a', null, 'passed']]);
    });

    it('are inherited by nested testsuites without their own, and cut to 100 characters', () => {
      const xml = `<testsuites>
        <testsuite hostname="${'h'.repeat(120)}"><testsuite name="inner"><testcase name="a"/></testsuite></testsuite>
        <testsuite hostname="other"><testcase name="a"/></testsuite>
      </testsuites>`;
      expect(configurations(xml).map(([, c]) => c)).toEqual(['h'.repeat(100), 'other']);
    });
  });

  describe('reruns of one execution (gotestsum --rerun-fails)', () => {
    it('merges the same test with the same configuration into one result, the last final', () => {
      const xml = `<testsuites>
        <testsuite name="pkg"><testcase classname="pkg" name="TestA" time="1"><failure message="run 1">trace 1</failure></testcase>
          <testcase classname="pkg" name="TestB" time="2"/></testsuite>
        <testsuite name="pkg"><testcase classname="pkg" name="TestA" time="3"><skipped message="skip"/></testcase></testsuite>
        <testsuite name="pkg"><testcase classname="pkg" name="TestA" time="4"/></testsuite>
      </testsuites>`;
      const items = parseJunitReport(xml, 'go1.22');
      expect(items.map((i) => [i.automationId, i.status, i.retries, i.durationMs])).toEqual([
        ['pkg.TestA', 'passed', 1, 4000],
        ['pkg.TestB', 'passed', 0, 2000],
      ]);
      expect(items[0].configuration).toBe('go1.22');
      expect(items[0].attempts).toEqual([
        {
          status: 'failed',
          durationMs: 1000,
          message: 'run 1',
          failureType: null,
          stackTrace: 'trace 1',
        },
        {
          status: 'skipped',
          durationMs: 3000,
          message: 'skip',
          failureType: null,
          stackTrace: null,
        },
      ]);
    });

    it('carries each execution’s own attempts along, keeping the last 20', () => {
      const run = (n: number) =>
        `<testcase name="t">${Array.from({ length: n }, (_, i) => `<failure message="${n}.${i}"/>`).join('')}</testcase>`;
      const [item] = parseJunitReport(`<testsuite>${run(12)}${run(12)}</testsuite>`);
      expect(item.retries).toBe(23);
      expect(item.message).toBe('12.11');
      expect(item.attempts).toHaveLength(20);
      expect(item.attempts[0].message).toBe('12.3');
      expect(item.attempts[19].message).toBe('12.10');
    });
  });

  it('keeps a long automation id apart by a hash of the whole', () => {
    const long = (end: string) =>
      `<testcase classname="${'c'.repeat(990)}" name="${'n'.repeat(20)}${end}"/>`;
    const items = parseJunitReport(`<testsuite>${long('1')}${long('2')}</testsuite>`);
    expect(items).toHaveLength(2);
    for (const { automationId } of items) {
      expect(automationId).toHaveLength(1000);
      expect(automationId).toMatch(/^c{983}~[0-9a-f]{16}$/);
    }
    expect(items[0].automationId).not.toBe(items[1].automationId);
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
