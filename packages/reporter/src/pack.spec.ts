import { checkXmlReport } from './xml-check.js';
import { sha256 } from './keys.js';
import { packJunit, topLevelElements, type JunitReport } from './pack.js';

const report = (file: string, xml: string): JunitReport => {
  const bytes = Buffer.from(xml);
  const { results } = checkXmlReport(xml);
  return {
    kind: 'junit',
    file,
    bytes,
    hash: sha256(bytes),
    cases: results,
    contentType: 'application/xml',
  };
};
const suite = (name: string, cases = 2, extra = '') =>
  `<testsuite name="${name}"${extra}>${Array.from({ length: cases }, (_, i) => `<testcase classname="${name}" name="t${i}"/>`).join('')}</testsuite>`;

describe('packing JUnit reports into few bodies', () => {
  it('puts small reports under one <testsuites>, BOM and XML declarations dropped, a well-formed body', () => {
    const a = report(
      'a.xml',
      `\uFEFF<?xml version="1.0" encoding="utf-8"?>\n<!-- surefire -->\n${suite('A')}\n`,
    );
    const b = report(
      'b.xml',
      `<?xml version='1.0'?><testsuites name="all" time="1">${suite('B')}${suite('C')}</testsuites>`,
    );
    const [body, ...more] = packJunit([a, b]);
    expect(more).toEqual([]);
    expect(body.reports).toEqual([a, b]);
    expect(body.identity).toEqual([a.hash, b.hash]);
    const xml = body.body.toString('utf8');
    expect(
      xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n<testsuite name="A">'),
    ).toBe(true);
    expect(checkXmlReport(xml).results).toBe(6);
    expect(xml).not.toContain('\uFEFF');
    expect(xml.match(/<\?xml/g)).toHaveLength(1);
  });

  it('sends a report alone as it is, under the key it always had', () => {
    const a = report('a.xml', suite('A'));
    expect(packJunit([a])).toEqual([{ reports: [a], body: a.bytes, identity: [a.hash] }]);
  });

  it('keeps each body within the limit, and reports sharing a test in separate bodies', () => {
    const reports = Array.from({ length: 10 }, (_, i) => report(`${i}.xml`, suite(`S${i}`, 20)));
    const size = reports[0].bytes.length;
    const bodies = packJunit(reports, 3 * size + 100);
    expect(bodies.map((b) => b.reports.length)).toEqual([3, 3, 3, 1]);
    for (const b of bodies) expect(b.body.length).toBeLessThanOrEqual(3 * size + 100);
    const again = report('again.xml', suite('S0', 20));
    expect(
      packJunit([reports[0], reports[1], again]).map((b) => b.reports.map((r) => r.file)),
    ).toEqual([['0.xml', '1.xml'], ['again.xml']]);
  });

  it('sends alone a report of another encoding, with a DOCTYPE, or whose hostnames may be configurations', () => {
    const latin = report('latin.xml', `<?xml version="1.0" encoding="ISO-8859-1"?>${suite('L')}`);
    const doctype = report('doctype.xml', `<!DOCTYPE testsuite>${suite('D')}`);
    const hosts = report(
      'hosts.xml',
      `<testsuites>${suite('H', 1, ' hostname="chromium"')}${suite('H', 1, ' hostname="firefox"')}</testsuites>`,
    );
    const plain = [report('p.xml', suite('P')), report('q.xml', suite('Q'))];
    const bodies = packJunit([latin, ...plain, doctype, hosts]);
    expect(bodies.map((b) => b.reports.map((r) => r.file)).sort()).toEqual(
      [['doctype.xml'], ['hosts.xml'], ['latin.xml'], ['p.xml', 'q.xml']].sort(),
    );
  });

  it('splits a report over the limit between its testsuites, each part a body of its own', () => {
    const suites = Array.from({ length: 6 }, (_, i) => suite(`Big${i}`, 30));
    const big = report(
      'big.xml',
      `<?xml version="1.0"?>\n<testsuites>\n<!-- <testsuite> -->\n${suites.join('\n')}\n</testsuites>\n`,
    );
    const bodies = packJunit([big], 2 * Buffer.byteLength(suites[0]) + 200);
    expect(bodies).toHaveLength(3);
    expect(bodies.map((b) => b.part)).toEqual([0, 1, 2].map((index) => ({ index, of: 3 })));
    expect(bodies.map((b) => b.identity)).toEqual([0, 1, 2].map((i) => [big.hash, `part:${i}/3`]));
    const cases = bodies.map((b) => checkXmlReport(b.body.toString('utf8')).results);
    expect(cases).toEqual([60, 60, 60]);
    expect(() => packJunit([big], Buffer.byteLength(suites[0]))).toThrow(
      'big.xml: the report is 0.0 MiB with a <testsuite> of',
    );
  });

  it('finds the top-level elements past comments, CDATA and a > in an attribute', () => {
    const xml = `<a x="1>2"><![CDATA[</a>]]></a><!-- <b> --><b/>\n<c><c></c></c>`;
    expect(topLevelElements(xml)).toEqual([
      `<a x="1>2"><![CDATA[</a>]]></a>`,
      '<b/>',
      '<c><c></c></c>',
    ]);
  });
});
