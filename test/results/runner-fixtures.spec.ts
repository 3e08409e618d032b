import { existsSync, readFileSync } from 'node:fs';
import { SaxesParser } from 'saxes';

// The reports the real test runners wrote (test/fixtures/runners/make-fixtures.sh). The parsers'
// tests trust them, so a fixture that was cut short or hand-edited into invalid XML/JSON, or
// that no longer matches expected.json, must fail here rather than as a confusing parser bug.
const FIXTURES = 'test/fixtures/runners';

interface Expected {
  format: string;
  records: number;
}

const expected = JSON.parse(readFileSync(`${FIXTURES}/expected.json`, 'utf8')) as Record<
  string,
  Expected
>;

/** Parses the whole document with saxes and counts its `<testcase>` elements. */
function testcasesIn(xml: string): number {
  const parser = new SaxesParser();
  let testcases = 0;
  parser.on('opentag', (tag) => {
    if (tag.name === 'testcase') testcases += 1;
  });
  parser.on('error', (err) => {
    throw err;
  });
  parser.write(xml).close();
  return testcases;
}

describe('runner fixtures', () => {
  it('lists every report the script keeps', () => {
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(20);
  });

  describe.each(Object.entries(expected))('%s', (file, facts) => {
    const path = `${FIXTURES}/${file}`;

    it('exists', () => {
      expect(existsSync(path)).toBe(true);
    });

    it('parses as the format it is listed as', () => {
      const text = readFileSync(path, 'utf8');
      if (file.endsWith('.xml')) {
        // JUnit's one record is a <testcase>; a second parser recounts what ElementTree counted.
        expect(testcasesIn(text)).toBe(facts.records);
      } else if (file.endsWith('.ndjson')) {
        const lines = text.split('\n').filter((line) => line.trim() !== '');
        const started = lines.filter((line) => 'testCaseStarted' in JSON.parse(line)).length;
        expect(started).toBe(facts.records);
      } else {
        expect(() => JSON.parse(text) as unknown).not.toThrow();
      }
    });
  });
});
