// `npm run fuzz -- --runs N --seed S [--path P] [--concurrency C] [--no-build]`: a longer
// campaign of test/reliability/openapi-fuzz.e2e-spec.ts than the one `npm test` runs. The
// options reach the test as FUZZ_* variables; the build is needed by the test's global setup
// (dist/migrate.js), and is redone unless --no-build, so the migrations are the current ones.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    seed: { type: 'string' },
    path: { type: 'string' },
    concurrency: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
for (const name of ['runs', 'seed', 'concurrency']) {
  if (values[name] !== undefined && !/^\d+$/.test(values[name])) {
    process.stderr.write(`--${name} must be a whole number, got ${values[name]}\n`);
    process.exit(2);
  }
}

const run = (command, args, env = process.env) =>
  spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;

if (!values['no-build']) {
  const status = run('npm', ['run', '-s', 'build']);
  if (status !== 0) process.exit(status);
}
const env = { ...process.env };
if (values.runs) env.FUZZ_RUNS = values.runs;
if (values.seed) env.FUZZ_SEED = values.seed;
if (values.path) env.FUZZ_PATH = values.path;
if (values.concurrency) env.FUZZ_CONCURRENCY = values.concurrency;
process.exit(
  run(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--no-warnings=ExperimentalWarning',
      'node_modules/jest/bin/jest.js',
      'test/reliability/openapi-fuzz.e2e-spec.ts',
    ],
    env,
  ),
);
