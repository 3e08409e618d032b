import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// The hand-written fixtures checked against the schemas their runners publish, where one is
// available and can be committed (test/fixtures/reports/README.md says which and why).
const REPORTS = 'test/fixtures/reports';
const SCHEMAS: Array<[fixture: string, schema: string]> = [
  ['robot/rf7-output.xml', 'schemas/robot/result.xsd'],
  ['robot/rf6-output.xml', 'schemas/robot/robot.xsd'],
  ['robot/rf5-output.xml', 'schemas/robot/robot.xsd'],
  ['robot/rf4-output.xml', 'schemas/robot/robot.xsd'],
  ['robot/rf3-output.xml', 'schemas/robot/robot-xsd10.xsd'],
];

/**
 * RF 4's and RF 6's own schemas (versions 2 and 4) are not committed: their fixtures use only
 * elements that RF 5's schema (version 3) has too, so they are checked against it with their
 * `schemaversion` read as 3 (test/fixtures/reports/README.md).
 */
const asVersion3 = (fixture: string, xml: string) =>
  /rf[46]-/.test(fixture) ? xml.replace(/schemaversion="[24]"/, 'schemaversion="3"') : xml;

/** xmllint's verdict on `xml` against `schema`: null when valid, else its complaint. */
function schemaErrors(xml: string, schema: string): string | null {
  const run = spawnSync('xmllint', ['--noout', '--schema', `${REPORTS}/${schema}`, '-'], {
    input: xml,
    encoding: 'utf8',
  });
  if (run.error) throw new Error(`xmllint is needed (Debian: libxml2-utils): ${run.error.message}`);
  return run.status === 0 ? null : run.stderr;
}

describe('report fixtures against their published schemas', () => {
  beforeAll(() => {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
  });

  it.each(SCHEMAS)('%s is valid against %s', (fixture, schema) => {
    const xml = asVersion3(fixture, readFileSync(`${REPORTS}/${fixture}`, 'utf8'));
    expect(schemaErrors(xml, schema)).toBeNull();
  });

  it.each(SCHEMAS)('%s with a status Robot does not write is not', (fixture, schema) => {
    const xml = asVersion3(fixture, readFileSync(`${REPORTS}/${fixture}`, 'utf8')).replace(
      /<status status="FAIL"/,
      '<status status="MAYBE"',
    );
    expect(schemaErrors(xml, schema)).toMatch(/MAYBE/);
  });
});
