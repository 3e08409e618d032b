import fc from 'fast-check';
import { checkXmlReport } from '../../packages/reporter/src/xml-check.js';
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
describe("the reporter's JUnit check and the service's parser", () => {
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

  it('agree on every document', () => {
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
});
