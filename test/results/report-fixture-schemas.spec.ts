import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// The hand-written fixtures checked against the schemas their runners publish, where one is
// available and can be committed (test/fixtures/reports/README.md says which and why).
const REPORTS = 'test/fixtures/reports';
const SCHEMAS: Array<[fixture: string, schema: string]> = [
  ['robot/rf7-output.xml', 'schemas/robot/result.xsd'],
  ['robot/rf5-output.xml', 'schemas/robot/robot.xsd'],
  ['robot/rf3-output.xml', 'schemas/robot/robot-xsd10.xsd'],
];

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
    expect(schemaErrors(readFileSync(`${REPORTS}/${fixture}`, 'utf8'), schema)).toBeNull();
  });

  it.each(SCHEMAS)('%s with a status Robot does not write is not', (fixture, schema) => {
    const xml = readFileSync(`${REPORTS}/${fixture}`, 'utf8').replace(
      /<status status="FAIL"/,
      '<status status="MAYBE"',
    );
    expect(schemaErrors(xml, schema)).toMatch(/MAYBE/);
  });
});
