import path from 'node:path';
import { readAllureResults, allureResultFiles } from '../../packages/reporter/src/allure.js';
import { evidenceOf } from '../../packages/reporter/src/report-evidence.js';
import { readReport } from '../../packages/reporter/src/reports.js';
import { parseJsonReport } from '../../src/results/formats/json-reports.js';
import { parseXmlReport } from '../../src/results/formats/xml-report.js';
import { RUNNER_FIXTURES } from '../support/runner-fixtures.js';

/**
 * The reporter names each attachment's result by the slot (automation id, configuration) the
 * service derives from the same report (CONTRACT §15 creates are all or nothing: a slot
 * without a result refuses the batch). Checked here against the service's own parsers, on the
 * real runners' reports that name evidence: Playwright's JSON and JUnit (two projects, long
 * names), CTRF's and Cucumber's, and an Allure folder.
 */

const CALL_CONFIGURATION = 'ci';
const slot = (automationId: string | null, configuration: string | null | undefined) =>
  `${automationId ?? ''}\u0000${configuration ?? ''}`;

const REPORTS: [file: string, pathRoot: string | undefined, atLeast: number][] = [
  ['playwright/playwright.json', '/tmp/tm-fixture-suites/playwright/', 17],
  ['playwright/playwright-junit.xml', undefined, 17],
  ['ctrf/playwright-ctrf.json', '/tmp/tm-fixture-suites/playwright/', 5],
  ['cucumber/cucumber.json', '/tmp/tm-fixture-suites/cucumber/', 1],
  ['playwright-evidence/reports/playwright-evidence.json', undefined, 10],
  ['playwright-evidence/reports/playwright-evidence-junit.xml', undefined, 10],
];

describe('the slots tm-report names attachments by are the service’s', () => {
  it.each(REPORTS)('%s', (file, pathRoot, atLeast) => {
    const report = readReport(file, RUNNER_FIXTURES);
    if (!('bytes' in report)) throw new Error('a document was expected');
    const text = report.bytes.toString('utf8');
    const options = { configuration: CALL_CONFIGURATION, pathRoot: pathRoot ?? null };
    const items = file.endsWith('.xml')
      ? parseXmlReport(text, 'junit', options)
      : parseJsonReport(JSON.parse(text), report.kind as 'playwright', options);
    const slots = new Set(items.map((item) => slot(item.automationId, item.configuration)));
    const evidence = evidenceOf([report], RUNNER_FIXTURES, pathRoot);
    expect(evidence.length).toBeGreaterThanOrEqual(atLeast);
    for (const e of evidence)
      expect(slots).toContain(slot(e.automationId, e.configuration ?? CALL_CONFIGURATION));
  });

  it('tells projects apart where the report does: Playwright JUnit hostnames', () => {
    const report = readReport('playwright/playwright-junit.xml', RUNNER_FIXTURES);
    const configurations = new Set(
      evidenceOf([report], RUNNER_FIXTURES).map((e) => e.configuration),
    );
    expect(configurations).toEqual(new Set(['chromium', 'firefox']));
  });

  it('an Allure folder: its results’ and steps’ attachments, on the items sent', () => {
    const folder = path.resolve(RUNNER_FIXTURES, 'allure/allure-results');
    const { items, evidence } = readAllureResults(
      allureResultFiles(folder, '/'),
      '/',
      undefined,
      'allure-results',
    );
    const slots = new Set(
      items.map((item) => slot(item.automation_id ?? null, item.configuration)),
    );
    expect(evidence.length).toBeGreaterThan(0);
    for (const e of evidence) {
      expect(slots).toContain(slot(e.automationId, e.configuration));
      expect(e.name).toMatch(/^error-context\.md$/);
      expect(e.contentType).toBe('text/markdown');
      expect('file' in e.source && path.dirname(e.source.file)).toBe(folder);
    }
  });

  it('a Cucumber embedding: its bytes, type and a name with its extension', () => {
    const report = readReport('cucumber/cucumber.json', RUNNER_FIXTURES);
    const [first] = evidenceOf([report], RUNNER_FIXTURES);
    expect(first).toMatchObject({ name: 'embedding-1.txt', contentType: 'text/plain' });
    expect('bytes' in first.source && first.source.bytes.toString()).toBe('text');
  });
});
