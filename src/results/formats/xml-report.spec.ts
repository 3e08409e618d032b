import { fixture, NO_OPTIONS, refusal } from '../../../test/support/report-fixtures.js';
import { parseXmlReport, rootElementOf } from './xml-report.js';

describe('rootElementOf', () => {
  it('finds the first element past a BOM, declarations, comments and a DOCTYPE', () => {
    expect(rootElementOf('<robot generator="x">')).toBe('robot');
    expect(rootElementOf('\uFEFF<?xml version="1.0"?>\n<TestRun xmlns="urn:x">')).toBe('TestRun');
    expect(
      rootElementOf('<?xml version="1.0"?><!-- a <fake> one --><?pi x?>\n  <test-run id="0"/>'),
    ).toBe('test-run');
    expect(rootElementOf('<!DOCTYPE assemblies [ <!ENTITY a "b"> ]><assemblies>')).toBe(
      'assemblies',
    );
    expect(rootElementOf('<t:TestRun xmlns:t="urn:x">')).toBe('t:TestRun');
  });

  it('finds none where the document does not start as XML does', () => {
    expect(rootElementOf('')).toBeNull();
    expect(rootElementOf('{"results": []}')).toBeNull();
    expect(rootElementOf('<!-- never closed')).toBeNull();
  });
});

describe('parseXmlReport', () => {
  const formats: Array<[string, string]> = [
    ['trx', 'trx/mstest.trx'],
    ['nunit', 'nunit/nunitlite.xml'],
    ['xunit', 'xunit/xunit-v2.xml'],
    ['robot', 'robot/rf7-output.xml'],
  ];

  it.each(formats)('recognises %s from its root, and takes it named', (format, path) => {
    const xml = fixture(path);
    const recognised = parseXmlReport(xml, undefined, NO_OPTIONS);
    expect(recognised.length).toBeGreaterThan(0);
    expect(parseXmlReport(xml, format as 'trx', NO_OPTIONS)).toEqual(recognised);
  });

  it('still reads JUnit, recognised or named', () => {
    const xml = '<testsuite><testcase classname="a.B" name="c"/></testsuite>';
    expect(parseXmlReport(xml, undefined, NO_OPTIONS)[0].automationId).toBe('a.B.c');
    expect(parseXmlReport(xml, 'junit', NO_OPTIONS)[0].automationId).toBe('a.B.c');
  });

  it('refuses a document of another shape than the format named, naming body', () => {
    const error = refusal(() => parseXmlReport(fixture('trx/mstest.trx'), 'nunit', NO_OPTIONS));
    expect(error.details.field).toBe('body');
    expect(error.message).toMatch(
      /format=nunit is a NUnit 3 <test-run> document.*root element is <TestRun>/,
    );
  });

  it('refuses a JSON format named for an XML body, naming body', () => {
    const error = refusal(() => parseXmlReport('<testsuites/>', 'playwright', NO_OPTIONS));
    expect(error.details.field).toBe('body');
    expect(error.message).toMatch(/format=playwright names a JSON report/);
  });

  it('refuses any other root, listing the formats taken', () => {
    const error = refusal(() =>
      parseXmlReport('<?xml version="1.0"?><test-results/>', undefined, NO_OPTIONS),
    );
    expect(error.details.field).toBe('body');
    expect(error.message).toMatch(/root element is <test-results>/);
    for (const shape of [
      '<testsuites>',
      '<TestRun>',
      '<test-run>',
      '<assemblies>',
      '<robot>',
      'Playwright',
      'CTRF',
      'Cucumber',
    ]) {
      expect(error.message).toContain(shape);
    }
  });

  it('refuses an empty body and malformed XML, the latter with its position', () => {
    expect(refusal(() => parseXmlReport(' \n', undefined, NO_OPTIONS)).message).toMatch(
      /The body is empty\. This service reads/,
    );
    const garbage = refusal(() => parseXmlReport('hello <robot/>', undefined, NO_OPTIONS));
    expect(garbage.details.field).toBe('body');
    expect(garbage.message).toMatch(/not well-formed XML at line 1, column \d+/);
    const broken = refusal(() =>
      parseXmlReport('<assemblies>\n  <assembly>\n</assemblies>', undefined, NO_OPTIONS),
    );
    expect(broken.message).toMatch(/not well-formed xUnit\.net v2 report.* at line 3/);
  });

  it('reads a root qualified with a namespace prefix', () => {
    const xml = `<t:TestRun xmlns:t="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><t:Results>
      <t:UnitTestResult testId="a" testName="Works" outcome="Passed"/></t:Results></t:TestRun>`;
    expect(parseXmlReport(xml, 'trx', NO_OPTIONS)[0]).toMatchObject({
      automationId: 'Works',
      status: 'passed',
    });
  });
});
