// Each XML report format's ingest rate against JUnit's, in one run (issue 28, CONTRACT §14):
// a 20,000-test document of every format (the same tests: 20 suites of 1,000, one in 50
// failing with a message and a stack trace), each ingested as new cases through
// POST /results/ingest, three times, in rotating order so the machine's drift falls on every
// format alike; the median of each is reported, and its ratio to JUnit's.
// Also each parser's own rate in this process (no HTTP, no database), for where time goes.
// Target (issue 28): every format ≥ 0.7 × JUnit's ingest rate.
import { randomUUID } from 'node:crypto';
import { benchProject, createDatabase, dropDatabase, startService, viaHttps } from './support.mjs';
import { parseXmlReport } from '../dist/results/formats/xml-report.js';

const TESTS = Number(process.env.BENCH_FORMAT_TESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_FORMAT_ROUNDS ?? 3);
const SUITES = 20;
const PER_SUITE = TESTS / SUITES;
const TARGET = 0.7;

const MESSAGE = 'expected &lt;1&gt; but was &lt;2&gt;';
const TRACE = (suite, i) => `at ${suite}.test${i}() in /src/${suite}.cs:line ${i}`;
const failing = (i) => i % 50 === 0;
/** The tests every document holds: suite (class) and test names. */
function* tests(pkg) {
  for (let s = 0; s < SUITES; s++) {
    for (let i = 0; i < PER_SUITE; i++) yield { suite: `${pkg}.Suite${s}`, s, name: `test${i}`, i };
  }
}

const documents = {
  junit: (pkg) => {
    let xml = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n';
    for (let s = 0; s < SUITES; s++) {
      xml += `<testsuite name="${pkg}.Suite${s}" tests="${PER_SUITE}">\n`;
      for (let i = 0; i < PER_SUITE; i++) {
        xml += failing(i)
          ? `<testcase classname="${pkg}.Suite${s}" name="test${i}" time="0.012"><failure message="${MESSAGE}" type="AssertionError">${TRACE(`${pkg}.Suite${s}`, i)}</failure></testcase>\n`
          : `<testcase classname="${pkg}.Suite${s}" name="test${i}" time="0.003"/>\n`;
      }
      xml += '</testsuite>\n';
    }
    return `${xml}</testsuites>\n`;
  },
  // Lean, as TRX goes (no TestEntries), to stay within the 10 MiB body: results first, then
  // the definitions they are joined with.
  trx: (pkg) => {
    const ids = [];
    let results = '';
    for (const { suite, name, i } of tests(pkg)) {
      const id = randomUUID();
      ids.push([id, suite, name]);
      results += failing(i)
        ? `<UnitTestResult testId="${id}" testName="${name}" duration="00:00:00.0120000" outcome="Failed"><Output><ErrorInfo><Message>${MESSAGE}</Message><StackTrace>${TRACE(suite, i)}</StackTrace></ErrorInfo></Output></UnitTestResult>\n`
        : `<UnitTestResult testId="${id}" testName="${name}" duration="00:00:00.0030000" outcome="Passed"/>\n`;
    }
    const definitions = ids
      .map(([id, suite, name]) => `<UnitTest id="${id}" name="${name}"><TestMethod className="${suite}" name="${name}"/></UnitTest>\n`)
      .join('');
    return `<?xml version="1.0" encoding="utf-8"?>\n<TestRun id="${randomUUID()}" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">\n<Results>\n${results}</Results>\n<TestDefinitions>\n${definitions}</TestDefinitions>\n</TestRun>\n`;
  },
  nunit: (pkg) => {
    let xml = `<?xml version="1.0" encoding="utf-8"?>\n<test-run id="0" testcasecount="${TESTS}" result="Failed">\n<test-suite type="Assembly" name="${pkg}.dll" fullname="${pkg}.dll">\n`;
    for (let s = 0; s < SUITES; s++) {
      const suite = `${pkg}.Suite${s}`;
      xml += `<test-suite type="TestFixture" name="Suite${s}" fullname="${suite}" classname="${suite}">\n`;
      for (let i = 0; i < PER_SUITE; i++) {
        const head = `<test-case id="${s}-${i}" name="test${i}" fullname="${suite}.test${i}" methodname="test${i}" classname="${suite}" runstate="Runnable" seed="1"`;
        xml += failing(i)
          ? `${head} result="Failed" duration="0.012" asserts="1"><failure><message><![CDATA[${MESSAGE}]]></message><stack-trace><![CDATA[${TRACE(suite, i)}]]></stack-trace></failure></test-case>\n`
          : `${head} result="Passed" duration="0.003" asserts="1"/>\n`;
      }
      xml += '</test-suite>\n';
    }
    return `${xml}</test-suite>\n</test-run>\n`;
  },
  xunit: (pkg) => {
    let xml = `<?xml version="1.0" encoding="utf-8"?>\n<assemblies schema-version="3">\n<assembly name="${pkg}.dll" total="${TESTS}">\n`;
    for (let s = 0; s < SUITES; s++) {
      const suite = `${pkg}.Suite${s}`;
      xml += `<collection name="Test collection for ${suite}" total="${PER_SUITE}">\n`;
      for (let i = 0; i < PER_SUITE; i++) {
        const head = `<test name="${suite}.test${i}" type="${suite}" method="test${i}"`;
        xml += failing(i)
          ? `${head} time="0.012" result="Fail"><failure exception-type="Xunit.Sdk.EqualException"><message>${MESSAGE}</message><stack-trace>${TRACE(suite, i)}</stack-trace></failure></test>\n`
          : `${head} time="0.003" result="Pass"/>\n`;
      }
      xml += '</collection>\n';
    }
    return `${xml}</assembly>\n</assemblies>\n`;
  },
  robot: (pkg) => {
    const start = 'start="2024-08-20T09:30:00.000000"';
    let xml = `<?xml version="1.0" encoding="UTF-8"?>\n<robot generator="Robot 7.0.1" schemaversion="5">\n<suite id="s1" name="${pkg}">\n`;
    for (let s = 0; s < SUITES; s++) {
      xml += `<suite id="s1-s${s}" name="Suite${s}">\n`;
      for (let i = 0; i < PER_SUITE; i++) {
        xml += failing(i)
          ? `<test id="s1-s${s}-t${i}" name="test${i}"><kw name="Should Be Equal" owner="BuiltIn"><arg>1</arg><arg>2</arg><status status="FAIL" ${start} elapsed="0.010">${MESSAGE}</status></kw><status status="FAIL" ${start} elapsed="0.012">${MESSAGE}</status></test>\n`
          : `<test id="s1-s${s}-t${i}" name="test${i}"><kw name="Log" owner="BuiltIn"><arg>ok</arg><status status="PASS" ${start} elapsed="0.001"/></kw><status status="PASS" ${start} elapsed="0.003"/></test>\n`;
      }
      xml += `<status status="FAIL" ${start} elapsed="3.0"/>\n</suite>\n`;
    }
    return `${xml}<status status="FAIL" ${start} elapsed="60.0"/>\n</suite>\n</robot>\n`;
  },
};
const FORMATS = Object.keys(documents);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// The parsers alone, in this process: documents of their own package names.
const parseRates = {};
const sizes = {};
for (const format of FORMATS) {
  const xml = documents[format]('parse.only');
  sizes[format] = Buffer.byteLength(xml);
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    const items = parseXmlReport(xml, format, { configuration: null, pathRoot: null });
    times.push(Number(process.hrtime.bigint() - started) / 1e9);
    if (items.length !== TESTS) throw new Error(`${format}: ${items.length} items, not ${TESTS}`);
  }
  parseRates[format] = TESTS / median(times);
}

const db = createDatabase('formats');
const service = await startService({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' });
try {
  const { key, project } = await benchProject(service.base, ['testruns:create', 'results:submit'], 'Formats', 'FMT');
  const ingest = async (format, round) => {
    // New cases every time: a package of its own per format and round.
    const xml = documents[format](`com.bench.${format}.r${round}`);
    const started = process.hrtime.bigint();
    const res = await fetch(`${service.base}/api/v1/results/ingest?project_id=${project.id}&run_name=${format}-${round}`, {
      method: 'POST',
      headers: { ...viaHttps, authorization: `Bearer ${key}`, 'content-type': 'application/xml' },
      body: xml,
    });
    const body = await res.json();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (res.status !== 201 || body.accepted !== TESTS || body.created_test_cases !== TESTS) {
      throw new Error(`${format}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    return seconds;
  };
  // A warm-up ingest, so that the first format measured does not pay for a cold service.
  await ingest('junit', 'warmup');
  const times = Object.fromEntries(FORMATS.map((format) => [format, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = FORMATS.map((_, i) => FORMATS[(i + round) % FORMATS.length]);
    for (const format of order) times[format].push(await ingest(format, round));
  }
  const junitRate = TESTS / median(times.junit);
  console.table(
    FORMATS.map((format) => {
      const rate = TESTS / median(times[format]);
      return {
        format,
        'MB': Number((sizes[format] / 1e6).toFixed(1)),
        'ingest s (each round)': times[format].map((t) => t.toFixed(2)).join(', '),
        'ingest results/s': Math.round(rate),
        'ratio to junit': Number((rate / junitRate).toFixed(2)),
        'parse-only results/s': Math.round(parseRates[format]),
      };
    }),
  );
  const short = FORMATS.filter((format) => TESTS / median(times[format]) / junitRate < TARGET);
  console.log(
    `Target: each format ≥ ${TARGET} × JUnit's ingest rate: ${short.length === 0 ? 'met' : `NOT met by ${short.join(', ')}`}`,
  );
} finally {
  await service.stop();
  await dropDatabase(db.name);
}
