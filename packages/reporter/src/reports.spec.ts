import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expandPatterns, globToRegExp } from './glob.js';
import fc from 'fast-check';
import { checkXmlReport, startTagEnd, startTagEndStepwise } from './xml-check.js';
import { jsonErrorOffset, parseJsonResults, readJsonFile } from './json-report.js';
import { batchesOf, readReport, readReports } from './reports.js';

describe('JUnit check', () => {
  it('accepts a report and counts its test cases', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!-- generated -->
<testsuites name="all">
  <testsuite name="a" tests="2">
    <testcase classname="a.B" name="one" time="0.1"/>
    <testcase classname='a.B' name="two"><failure message="x &lt; y" type="Assert"><![CDATA[at <x>]]></failure></testcase>
  </testsuite>
</testsuites>
`;
    expect(checkXmlReport(xml)).toEqual({ format: 'junit', results: 2 });
  });

  it.each([
    [
      '<testsuite>\n<testcase name="a">\n</testsuite>',
      3,
      'does not match <testcase> opened on line 2',
    ],
    ['<results>\n</results>', 1, 'root element is <results>'],
    ['<testsuite>\n  <testcase name=a/>\n</testsuite>', 2, 'not quoted'],
    ['<testsuite>\n<testcase name="a"/>\n', 1, '<testsuite> is never closed'],
    ['', 1, 'no root element'],
    ['{"results": []}', 1, 'text before the root element'],
    ['<testsuite/>\n<testsuite/>', 2, 'a second root element'],
  ])('refuses %j at line %i', (xml, line, message) => {
    expect(() => checkXmlReport(xml)).toThrow(message);
    try {
      checkXmlReport(xml);
    } catch (error) {
      expect((error as { line: number }).line).toBe(line);
    }
  });
});

describe('the report formats of CONTRACT §14, told from the document', () => {
  it.each([
    ['<?xml version="1.0"?>\n<testsuite><testcase name="a"/></testsuite>', 'junit', 1],
    [
      '\uFEFF<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results><UnitTestResult testName="a"/><UnitTestResult testName="b"/></Results></TestRun>',
      'trx',
      2,
    ],
    ['<test-run><test-suite><test-case name="a"/></test-suite></test-run>', 'nunit', 1],
    [
      '<assemblies><assembly><collection><test name="a"/></collection></assembly></assemblies>',
      'xunit',
      1,
    ],
    ['<robot><suite><test name="a"/><test name="b"/></suite><statistics/></robot>', 'robot', 2],
  ])('reads the XML %j as %s with %i results', (xml, format, results) => {
    expect(checkXmlReport(xml)).toEqual({ format, results });
  });

  it('names the format of a broken document, and refuses a root no format has', () => {
    expect(() => checkXmlReport('<test-run>\n<test-case>\n</test-run>')).toThrow(
      expect.objectContaining({ format: 'nunit', line: 3 }),
    );
    expect(() => checkXmlReport('<results/>')).toThrow(
      "the root element is <results>; a report's is one of <testsuites> or <testsuite> (JUnit XML), <TestRun> (VSTest TRX), <test-run> (NUnit 3 XML), <assemblies> (xUnit.net v2 XML), <robot> (Robot Framework output.xml)",
    );
  });

  it.each([
    [
      {
        config: {},
        suites: [{ specs: [{ tests: [{}, {}] }], suites: [{ specs: [{ tests: [{}] }] }] }],
      },
      'playwright',
      3,
    ],
    [{ results: { tool: { name: 'jest' }, tests: [{}, {}] } }, 'ctrf', 2],
    [{ testResults: [{ assertionResults: [{}, {}] }, { assertionResults: [{}] }] }, 'jest', 3],
    [
      [{ uri: 'a.feature', elements: [{ type: 'background' }, { type: 'scenario' }] }],
      'cucumber',
      1,
    ],
  ])('reads the JSON %j as %s with %i results', (document, kind, results) => {
    expect(readJsonFile(JSON.stringify(document))).toEqual({ kind, results });
  });

  it('reads result items as the JSON command, an empty list too', () => {
    expect(readJsonFile('{"results": [{"automation_id": "a", "status": "passed"}]}')).toEqual({
      kind: 'json',
      items: [{ automation_id: 'a', status: 'passed' }],
    });
    expect(readJsonFile('[]')).toEqual({ kind: 'json', items: [] });
    expect(() => readJsonFile('{"stats": {}, "tests": []}')).toThrow(
      'or a report: Playwright JSON',
    );
  });
});

describe('JUnit check: what the service refuses in text', () => {
  it.each([
    ['<testsuite>\n  <testcase name="a\u001b[31m"/>\n</testsuite>', 2, 20, 'U+001B (ESC)'],
    [
      '<testsuite>\n<testcase name="a"><failure>x\u0000y</failure></testcase></testsuite>',
      2,
      30,
      'U+0000 (NUL)',
    ],
    ['<testsuite><![CDATA[\u000b]]></testsuite>', 1, 21, 'U+000B'],
    ['<testsuite><!-- \uffff --></testsuite>', 1, 17, 'U+FFFF'],
    ['<testsuite name="😀😀">\u0001</testsuite>', 1, 22, 'U+0001'],
    ['<testsuite>\n <testcase name="a&#27;"/></testsuite>', 2, 19, '&#27; names U+001B (ESC)'],
    ['<testsuite>&#x0;</testsuite>', 1, 12, '&#x0; names U+0000 (NUL)'],
    ['<testsuite>&#xFFFE;</testsuite>', 1, 12, 'names U+FFFE'],
    ['<testsuite>&#x110000;</testsuite>', 1, 12, 'names no character'],
    ['<testsuite name="a&nbsp;b"/>', 1, 19, 'the entity &nbsp; is not defined'],
    ['<testsuite>\n\ta & b</testsuite>', 2, 4, "'&' that starts no reference"],
    ['<testsuite>&#;</testsuite>', 1, 12, "'&' that starts no reference"],
  ])('refuses %j at line %i, column %i', (xml, line, column, message) => {
    expect(() => checkXmlReport(xml)).toThrow(message);
    try {
      checkXmlReport(xml);
    } catch (error) {
      expect(error).toMatchObject({ line, column });
    }
  });

  it('takes tabs, line breaks, C1 characters, the predefined entities and legal references', () => {
    const xml =
      '<testsuite name="a&amp;b&lt;&gt;&quot;&apos;">\t\r\n\u0085&#9;&#x1F600;&#65;<![CDATA[& \u0085]]><!-- & --></testsuite>';
    expect(checkXmlReport(xml)).toEqual({ format: 'junit', results: 0 });
  });

  it('names the file, line and column', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tm-report-check-'));
    writeFileSync(
      path.join(dir, 'esc.xml'),
      '<testsuite>\n  <testcase name="red \u001b[31m"/>\n</testsuite>',
    );
    expect(() => readReport('esc.xml', dir)).toThrow(
      /^esc\.xml:2:23: invalid JUnit XML report: the character U\+001B \(ESC\), which XML 1\.0 does not allow/,
    );
  });
});

describe('start tags: the one-regex path and the step-by-step one agree', () => {
  const fail = (index: number, message: string): never => {
    throw new Error(`${index}: ${message}`);
  };
  const outcome = (check: () => unknown) => {
    try {
      return check();
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('on whatever follows a tag name', () => {
    const text = (chars: string[]) =>
      fc.array(fc.constantFrom(...chars), { maxLength: 4 }).map((c) => c.join(''));
    const value = fc
      .tuple(fc.constantFrom('"', "'"), text(['v', '<', '>', '/', '"', "'", ' ', '&']))
      .map(([quote, inside]) => `${quote}${inside}${quote}`);
    const piece = fc.oneof(
      fc.constantFrom(' ', '\n', '\t', '\r', '\u00a0', 'a', 'x-1.b', ':c', '1d', '=', 'v'),
      value,
      fc.constantFrom('>', '/>', '/', '<', '"', "'"),
      fc
        .tuple(fc.constantFrom(' ', '\n'), fc.constantFrom('a', 'b:c'), value)
        .map(([space, name, v]) => `${space}${name}=${v}`),
    );
    const tail = fc.constantFrom('', '>', '/>', '> text', '/>\n<t>');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), tail, (pieces, end) => {
        const xml = `<t${pieces.join('')}${end}`;
        expect(outcome(() => startTagEnd(xml, 2, 't', fail))).toEqual(
          outcome(() => startTagEndStepwise(xml, 2, 't', fail)),
        );
      }),
      { numRuns: 3000 },
    );
  });
});

describe('JSON result files', () => {
  it('reads an array of items or {"results": [...]}', () => {
    const item = { automation_id: 'a', status: 'passed' };
    expect(parseJsonResults(JSON.stringify([item]))).toEqual([item]);
    expect(parseJsonResults(JSON.stringify({ results: [item, item] }))).toHaveLength(2);
  });

  it('finds where the JSON breaks', () => {
    const text = '{\n  "results": [\n    {"status": "passed",}\n  ]\n}';
    expect(text.slice(jsonErrorOffset(text))).toMatch(/^}/);
    expect(() => parseJsonResults(text)).toThrow('not valid JSON');
  });

  it('names the item and its line', () => {
    const text =
      '[\n  {"automation_id": "a", "status": "passed"},\n  {"automation_id": "b", "status": "green"}\n]';
    try {
      parseJsonResults(text);
      throw new Error('accepted');
    } catch (error) {
      expect((error as Error).message).toContain('results[1].status');
      expect((error as { line: number }).line).toBe(3);
    }
  });

  it('splits items into calls of at most 5,000', () => {
    const items = Array.from({ length: 12_001 }, (_, i) => ({
      automation_id: `t${i}`,
      status: 'passed' as const,
    }));
    expect(batchesOf(items).map((b) => b.length)).toEqual([5000, 5000, 2001]);
    expect(batchesOf(items, 5000, 1000).every((b) => b.length <= 30)).toBe(true);
  });
});

describe('files and globs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tm-report-'));
  for (const file of [
    'a/x.xml',
    'a/b/y.xml',
    'a/b/z.json',
    'c.xml',
    'node_modules/n.xml',
    '.hidden/h.xml',
  ]) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), '<testsuite/>');
  }

  it('matches *, ** and {a,b}', () => {
    expect(globToRegExp('a/**/*.xml').test('a/x.xml')).toBe(true);
    expect(globToRegExp('a/**/*.xml').test('a/b/c/x.xml')).toBe(true);
    expect(globToRegExp('*.xml').test('a/x.xml')).toBe(false);
    expect(globToRegExp('**/*.{xml,json}').test('a/b/z.json')).toBe(true);
  });

  it('expands globs under the working directory, each file once', () => {
    expect(expandPatterns(['**/*.xml', 'a/b/y.xml'], dir)).toEqual([
      'a/b/y.xml',
      'a/x.xml',
      'c.xml',
    ]);
    expect(expandPatterns(['a/*/*.{xml,json}'], dir)).toEqual(['a/b/y.xml', 'a/b/z.json']);
    expect(expandPatterns([`${dir}/a/*.xml`], '/')).toEqual([`${dir}/a/x.xml`]);
  });

  it('says which pattern found nothing', () => {
    expect(() => expandPatterns(['reports/**/*.xml'], dir)).toThrow(
      'reports/**/*.xml: no files match.',
    );
    expect(() => expandPatterns(['missing.xml'], dir)).toThrow('missing.xml: no such file.');
  });

  it('reports an invalid file with its name and line', () => {
    writeFileSync(path.join(dir, 'bad.xml'), '<testsuite>\n<testcase name="a">\n</testsuite>\n');
    expect(() => readReport('bad.xml', dir)).toThrow(
      /^bad\.xml:3:1: invalid JUnit XML report: closing tag/,
    );
  });
});

describe('Allure results among the reports', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tm-report-allure-'));
  const write = (file: string, content: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  };
  write('junit/a.xml', '<testsuite><testcase name="a"/></testsuite>');
  write('out/allure-results/1-result.json', '{"fullName": "a", "status": "passed"}');
  write('out/allure-results/2-result.json', '{"fullName": "b", "status": "failed"}');
  write('out/allure-results/3-container.json', '{"children": []}');
  write('out/allure-results/4-attachment.png', 'PNG');

  it('reads a folder, or any glob of an allure-results folder, as one report of its results', () => {
    for (const pattern of ['out/allure-results', 'out/allure-results/*', 'out/**/*-result.json']) {
      const reports = readReports(['junit/*.xml', pattern], dir);
      expect(reports.map((r) => [r.kind, r.file, r.cases])).toEqual([
        ['junit', 'junit/a.xml', 1],
        ['allure', 'out/allure-results', 2],
      ]);
    }
  });

  it('says how to send the reports of a folder that holds no Allure results', () => {
    expect(() => readReports(['junit'], dir)).toThrow(
      "junit: a folder is read as Allure results, but it holds no *-result.json file (for the reports in a folder, give a glob such as 'junit/**/*.xml').",
    );
  });
});
