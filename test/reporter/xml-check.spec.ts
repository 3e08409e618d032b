import fc from 'fast-check';
import { checkXmlReport } from '../../packages/reporter/src/xml-check.js';
import { parseXmlReport } from '../../src/results/formats/xml-report.js';
import { parseJunitReport } from '../../src/results/junit/junit-parser.js';

const accepts = (parse: () => unknown) => {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
};

/**
 * `--dry-run` (and every submit) checks a report before sending it: what it takes in text and
 * attribute values, the service's parser takes too, and what it refuses, the service refuses.
 */
describe("the reporter's XML check and the service's parsers", () => {
  const piece = fc.constantFrom(
    'a',
    ' ',
    '\t',
    '\n',
    '\r',
    '\u0085',
    '😀',
    '\u0000',
    '\u0001',
    '\u001b',
    '\u000b',
    '\ufffe',
    '\uffff',
    '&',
    '&amp;',
    '&lt;',
    '&quot;',
    '&nbsp;',
    '&#27;',
    '&#x1B;',
    '&#65;',
    '&#x1F600;',
    '&#xFFFE;',
    '&#0;',
    '&#x110000;',
    '&#;',
    '&#x;',
    ';',
    '#',
  );
  const run = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));
  const text = fc
    .array(
      fc.oneof(
        run,
        run.map((t) => `<![CDATA[${t}]]>`),
        run.map((t) => `<!--${t}-->`),
      ),
      { maxLength: 3 },
    )
    .map((p) => p.join(''));

  it('agree on every JUnit document', () => {
    fc.assert(
      fc.property(run, run, text, (suite, name, body) => {
        const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n<testsuite name="${suite}">\n<testcase classname="c" name="n${name}"><failure message="m">${body}</failure></testcase>\n</testsuite>\n</testsuites>\n`;
        expect({ xml, reporter: accepts(() => checkXmlReport(xml)) }).toEqual({
          xml,
          reporter: accepts(() => parseJunitReport(xml)),
        });
      }),
      { numRuns: 3000 },
    );
  });

  /** A report of each other XML format, its texts and a name from the generators. */
  const documents: Record<string, (name: string, body: string) => string> = {
    trx: (name, body) =>
      `<TestRun id="1" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results><UnitTestResult testId="t" testName="n${name}" outcome="Failed"><Output><ErrorInfo><Message>${body}</Message></ErrorInfo></Output></UnitTestResult></Results><TestDefinitions><UnitTest id="t" name="n"><TestMethod className="C" name="n"/></UnitTest></TestDefinitions></TestRun>`,
    nunit: (name, body) =>
      `<test-run id="0"><test-suite type="Assembly" name="a" fullname="a"><test-case id="1" name="n${name}" fullname="C.n${name}" result="Failed"><failure><message>${body}</message></failure></test-case></test-suite></test-run>`,
    xunit: (name, body) =>
      `<assemblies><assembly name="a"><collection name="c"><test name="n${name}" type="C" method="n" result="Fail" time="0.1"><failure><message>${body}</message></failure></test></collection></assembly></assemblies>`,
    robot: (name, body) =>
      `<robot generator="Robot 7.0" schemaversion="5"><suite id="s1" name="S"><test id="s1-t1" name="n${name}"><status status="FAIL" start="2024-01-01T00:00:00.000" elapsed="0.1">${body}</status></test></suite></robot>`,
  };

  it.each(Object.keys(documents))('agree on every %s document', (format) => {
    const parse = (xml: string) =>
      parseXmlReport(xml, undefined, { configuration: null, pathRoot: null });
    // Both take the document with plain texts: the property compares more than refusals.
    expect(parse(documents[format]('a', 'b'))).toHaveLength(1);
    expect(checkXmlReport(documents[format]('a', 'b')).format).toBe(format);
    fc.assert(
      fc.property(run, text, (name, body) => {
        const xml = documents[format](name, body);
        expect({ xml, reporter: accepts(() => checkXmlReport(xml)) }).toEqual({
          xml,
          reporter: accepts(() => parse(xml)),
        });
      }),
      { numRuns: 1000 },
    );
  });
});
