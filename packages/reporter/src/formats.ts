/**
 * What the reporter sends: the report documents `POST /results/ingest` reads (CONTRACT §14),
 * sent as they are with their `format` named, and result items in the service's JSON command
 * form (a JSON results file, or an Allure results folder read into items).
 */

/** XML reports: told by their root element; `result` is the element of one result. */
export const XML_FORMATS = {
  junit: { roots: ['testsuites', 'testsuite'], result: 'testcase', label: 'JUnit XML' },
  trx: { roots: ['TestRun'], result: 'UnitTestResult', label: 'VSTest TRX' },
  nunit: { roots: ['test-run'], result: 'test-case', label: 'NUnit 3 XML' },
  xunit: { roots: ['assemblies'], result: 'test', label: 'xUnit.net v2 XML' },
  robot: { roots: ['robot'], result: 'test', label: 'Robot Framework output.xml' },
} as const;
export type XmlFormat = keyof typeof XML_FORMATS;

/** JSON reports, in the order the service tries their shapes (they exclude one another). */
export const JSON_FORMATS = {
  playwright: { label: 'Playwright JSON' },
  ctrf: { label: 'CTRF JSON' },
  jest: { label: 'Jest/Vitest JSON' },
  cucumber: { label: 'Cucumber JSON' },
} as const;
export type JsonFormat = keyof typeof JSON_FORMATS;

/** A report the service reads as the body of `POST /results/ingest`, named by `format`. */
export type DocumentFormat = XmlFormat | JsonFormat;

/** What a report file or folder is, as the dry run and `--json` name it. */
export type ReportKind = DocumentFormat | 'json' | 'allure';

const LABELS: Record<ReportKind, string> = {
  ...Object.fromEntries(Object.entries(XML_FORMATS).map(([name, { label }]) => [name, label])),
  ...Object.fromEntries(Object.entries(JSON_FORMATS).map(([name, { label }]) => [name, label])),
  json: 'JSON results',
  allure: 'Allure results',
} as Record<ReportKind, string>;

export function labelOf(kind: ReportKind): string {
  return LABELS[kind];
}

export function isXmlFormat(kind: string): kind is XmlFormat {
  return Object.hasOwn(XML_FORMATS, kind);
}
