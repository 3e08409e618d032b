// Ingest rate of each JSON report format (CONTRACT §14) against JUnit's, in the same run on the
// same service: a document of 20,000 tests (5 files of 4,000, every 20th failing with a message
// and a stack trace, every 50th passing on a retry where the format carries retries), written as
// each runner writes it, posted to `POST /results/ingest` into a project of its own (so every
// document creates its 20,000 cases), alternating formats over a few rounds. Prints each
// format's median tests per second and its ratio to JUnit's (the target is at least 0.7).
import { benchProject, createDatabase, dropDatabase, startService, viaHttps } from './support.mjs';

const TESTS = Number(process.env.BENCH_TESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FILES = 5;
const PER_FILE = TESTS / FILES;
const STACK = 'Error: expected 1 to be 2\n    at Object.<anonymous> (/ws/app/tests/file.spec.ts:12:5)\n    at run (/ws/app/node_modules/runner.js:1:1)';

/** The suite every document reports: file, describe block, title, outcome. */
const tests = Array.from({ length: TESTS }, (_, i) => ({
  file: `tests/area${i % FILES}/feature.spec.ts`,
  suite: `Feature ${i % FILES}`,
  title: `does thing number ${i} as expected`,
  failed: i % 20 === 0,
  flaky: i % 50 === 1,
  ms: 3 + (i % 40),
}));
const byFile = Array.from({ length: FILES }, (_, f) => tests.filter((_, i) => i % FILES === f));
const escapeXml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

const documents = {
  junit: () =>
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n' +
    byFile
      .map(
        (cases) =>
          `<testsuite name="${cases[0].file}" tests="${cases.length}">\n` +
          cases
            .map(
              (t) =>
                `<testcase classname="${escapeXml(`${t.file}.${t.suite}`)}" name="${escapeXml(t.title)}" time="${t.ms / 1000}">` +
                (t.failed ? `<failure message="expected 1 to be 2" type="Error">${escapeXml(STACK)}</failure>` : '') +
                (t.flaky ? '<flakyFailure message="first attempt" type="Error"/>' : '') +
                '</testcase>',
            )
            .join('\n') +
          '\n</testsuite>',
      )
      .join('\n') +
    '\n</testsuites>\n',
  playwright: () => {
    const result = (status, retry, t) => ({
      workerIndex: 0,
      parallelIndex: 0,
      status,
      duration: t.ms,
      ...(status === 'failed' ? { error: { message: 'Error: expected 1 to be 2', stack: STACK } } : {}),
      errors: status === 'failed' ? [{ message: 'Error: expected 1 to be 2' }] : [],
      stdout: [],
      stderr: [],
      retry,
      startTime: '2026-11-26T15:27:34.163Z',
      annotations: [],
      attachments: [],
    });
    return JSON.stringify({
      config: { projects: [{ name: 'chromium' }], rootDir: '/ws/app/tests' },
      suites: byFile.map((cases) => ({
        title: cases[0].file,
        file: cases[0].file,
        specs: [],
        suites: [
          {
            title: cases[0].suite,
            file: cases[0].file,
            specs: cases.map((t, line) => ({
              title: t.title,
              ok: !t.failed,
              tags: [],
              id: `id${line}`,
              file: t.file,
              line,
              column: 3,
              tests: [
                {
                  timeout: 30000,
                  annotations: [],
                  expectedStatus: 'passed',
                  projectId: 'chromium',
                  projectName: 'chromium',
                  results: t.flaky
                    ? [result('failed', 0, t), result('passed', 1, t)]
                    : [result(t.failed ? 'failed' : 'passed', 0, t)],
                  status: t.failed ? 'unexpected' : t.flaky ? 'flaky' : 'expected',
                },
              ],
            })),
          },
        ],
      })),
      errors: [],
      stats: {},
    });
  },
  ctrf: () =>
    JSON.stringify({
      reportFormat: 'CTRF',
      specVersion: '0.0.0',
      results: {
        tool: { name: 'playwright' },
        summary: { tests: TESTS },
        tests: tests.map((t) => ({
          name: t.title,
          status: t.failed ? 'failed' : 'passed',
          duration: t.ms,
          ...(t.failed ? { message: 'Error: expected 1 to be 2', trace: STACK } : {}),
          rawStatus: t.failed ? 'failed' : 'passed',
          tags: [],
          type: 'e2e',
          filePath: `/ws/app/${t.file}`,
          retries: t.flaky ? 1 : 0,
          flaky: t.flaky,
          suite: `${t.file} > ${t.suite}`,
          ...(t.flaky ? { retryAttempts: [{ status: 'failed', duration: t.ms, message: 'Error: first attempt' }] } : {}),
        })),
      },
    }),
  jest: () =>
    JSON.stringify({
      numTotalTests: TESTS,
      success: false,
      testResults: byFile.map((cases) => ({
        name: `/ws/app/${cases[0].file}`,
        status: 'failed',
        message: '',
        assertionResults: cases.map((t) => ({
          ancestorTitles: [t.suite],
          duration: t.ms,
          failureDetails: t.failed ? [{}] : [],
          failureMessages: t.failed ? [STACK] : [],
          fullName: `${t.suite} ${t.title}`,
          invocations: t.flaky ? 2 : 1,
          location: null,
          numPassingAsserts: 0,
          retryReasons: t.flaky ? ['Error: first attempt'] : [],
          status: t.failed ? 'failed' : 'passed',
          title: t.title,
        })),
      })),
    }),
  cucumber: () =>
    JSON.stringify(
      byFile.map((cases, f) => ({
        uri: `features/area${f}.feature`,
        id: `feature-${f}`,
        keyword: 'Feature',
        name: cases[0].suite,
        line: 1,
        tags: [],
        elements: cases.map((t, line) => ({
          id: `feature-${f};${t.title.replace(/ /g, '-')}`,
          keyword: 'Scenario',
          line: line + 3,
          name: t.title,
          type: 'scenario',
          tags: [],
          // Two steps a scenario: three, as Cucumber writes them, take 20,000 scenarios past 10 MiB.
          steps: ['Given ', 'Then '].map((keyword, s) => ({
            keyword,
            line: line + 4 + s,
            name: `step ${s}`,
            result:
              t.failed && s === 0
                ? { status: 'failed', duration: 1_000_000, error_message: STACK }
                : { status: t.failed ? 'skipped' : 'passed', duration: t.ms * 500_000 },
          })),
        })),
      })),
    ),
};

const types = { junit: 'application/xml' };
const db = createDatabase('json_reports');
const service = await startService({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' });
try {
  const bodies = Object.fromEntries(Object.entries(documents).map(([format, make]) => [format, make()]));
  const seconds = Object.fromEntries(Object.keys(bodies).map((format) => [format, []]));
  let projectCount = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [format, body] of Object.entries(bodies)) {
      projectCount++;
      const { key, project } = await benchProject(service.base, ['testruns:create', 'results:submit'], `P${projectCount}`, `P${projectCount}`);
      const started = process.hrtime.bigint();
      const res = await fetch(`${service.base}/api/v1/results/ingest?project_id=${project.id}&path_root=/ws/app/`, {
        method: 'POST',
        headers: { ...viaHttps, authorization: `Bearer ${key}`, 'content-type': types[format] ?? 'application/json' },
        body,
      });
      const answer = await res.json();
      const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      if (res.status !== 201 || answer.accepted !== TESTS || answer.created_test_cases !== TESTS) {
        throw new Error(`${format}: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
      }
      seconds[format].push(elapsed);
    }
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const rate = (format) => TESTS / median(seconds[format]);
  const junit = rate('junit');
  console.log(`${TESTS} tests a document, median of ${ROUNDS} rounds, each into a new project:`);
  for (const format of Object.keys(bodies)) {
    const ratio = rate(format) / junit;
    console.log(
      `${format.padEnd(10)} ${(bodies[format].length / 1048576).toFixed(1).padStart(5)} MiB  ` +
        `${median(seconds[format]).toFixed(2).padStart(6)} s  ${Math.round(rate(format)).toString().padStart(6)} tests/s  ` +
        `${ratio.toFixed(2)} of JUnit's${format === 'junit' ? '' : ratio >= 0.7 ? ' (≥ 0.7)' : ' (BELOW 0.7)'}`,
    );
  }
} finally {
  await service.stop();
  await dropDatabase(db.name);
}
