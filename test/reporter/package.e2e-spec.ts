import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPORTER = path.resolve('packages/reporter');

/**
 * The environment of a pipeline step: none of the `npm test` run's npm_* settings, and no
 * node_modules/.bin on the PATH (this repository's would hold a tm-report of its own).
 */
function pipelineEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)),
  );
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes(`node_modules${path.sep}.bin`))
    .join(path.delimiter);
  return env;
}

function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: pipelineEnv(), timeout: 150_000, maxBuffer: 16 * 1024 * 1024 },
      (error, out, err) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

/** Installed packages of a node_modules folder, scoped ones as `@scope/name`. */
function installed(nodeModules: string): string[] {
  return readdirSync(nodeModules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) =>
      name.startsWith('@')
        ? readdirSync(path.join(nodeModules, name)).map((inner) => `${name}/${inner}`)
        : [name],
    );
}

describe('the reporter as a package: npm pack, installed alone, run with npx', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'tm-report-package-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('packs dist, README and package.json only; installs without the service; `npx tm-report` helps and checks reports', async () => {
    // The package's own files in a folder of their own, so its prepack build (which empties
    // dist/) cannot race the other reporter tests that run packages/reporter/dist meanwhile.
    // Its build tools come from this repository's node_modules, as in the workspace.
    const source = path.join(work, 'reporter');
    mkdirSync(source);
    for (const entry of [
      'package.json',
      'tsconfig.json',
      'build.mjs',
      'README.md',
      'action.yml',
      'src',
    ])
      cpSync(path.join(REPORTER, entry), path.join(source, entry), { recursive: true });
    symlinkSync(path.resolve('node_modules'), path.join(source, 'node_modules'), 'dir');
    const tarballs = path.join(work, 'tarballs');
    mkdirSync(tarballs);

    const pack = await run('npm', ['pack', '--json', '--pack-destination', tarballs], source);
    expect({ code: pack.code, err: pack.code ? pack.err : '' }).toEqual({ code: 0, err: '' });
    const [packed] = JSON.parse(pack.out.slice(pack.out.indexOf('['))) as {
      filename: string;
      files: { path: string }[];
    }[];
    // Exactly the bundled CLI (the reporter and openapi-fetch), the GitHub Action's entry and its
    // action.yml (the unpacked tarball is an action), README and manifest: no TypeScript, no
    // tests, nothing of the service.
    expect(packed.files.map((f) => f.path).sort()).toEqual(
      ['README.md', 'action.yml', 'dist/action.js', 'dist/cli.js', 'package.json'].sort(),
    );

    // An empty pipeline project that installs the tarball (from the npm cache when it can).
    const pipeline = path.join(work, 'pipeline');
    mkdirSync(path.join(pipeline, 'reports'), { recursive: true });
    writeFileSync(
      path.join(pipeline, 'package.json'),
      JSON.stringify({ name: 'pipeline', private: true }),
    );
    const install = await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        path.join(tarballs, packed.filename),
      ],
      pipeline,
    );
    expect({ code: install.code, err: install.code ? install.err : '' }).toEqual({
      code: 0,
      err: '',
    });
    const dependencies = installed(path.join(pipeline, 'node_modules'));
    // No runtime dependencies at all (none of the service's): openapi-fetch is inside dist/cli.js.
    expect(dependencies).toEqual(['@tm/reporter']);
    expect(existsSync(path.join(pipeline, 'node_modules/.bin/tm-report'))).toBe(true);

    const help = await run('npx', ['--no-install', 'tm-report', '--help'], pipeline);
    expect(help).toMatchObject({
      code: 0,
      out: expect.stringContaining('Usage:\n  tm-report submit'),
    });
    const submitHelp = await run(
      'npx',
      ['--no-install', 'tm-report', 'submit', '--help'],
      pipeline,
    );
    expect(submitHelp.out).toContain('--dry-run');

    writeFileSync(
      path.join(pipeline, 'reports/unit.xml'),
      '<?xml version="1.0"?>\n<testsuites>\n  <testsuite name="unit">\n    <testcase classname="unit" name="adds"/>\n    <testcase classname="unit" name="subtracts"><failure message="1 != 2">at unit(Spec.java:3)</failure></testcase>\n  </testsuite>\n</testsuites>\n',
    );
    writeFileSync(
      path.join(pipeline, 'reports/api.json'),
      JSON.stringify({ results: [{ automation_id: 'api.health', status: 'passed' }] }),
    );
    const dry = await run(
      'npx',
      ['--no-install', 'tm-report', 'submit', '--dry-run', 'reports/*.{xml,json}', '--json'],
      pipeline,
    );
    expect({ code: dry.code, err: dry.code ? dry.err : '' }).toEqual({ code: 0, err: '' });
    expect(JSON.parse(dry.out)).toEqual({
      ok: true,
      dry_run: true,
      files: [
        { file: 'reports/api.json', kind: 'json', results: 1 },
        { file: 'reports/unit.xml', kind: 'junit', results: 2 },
      ],
    });

    // The README's one-liner for pipelines: npx installs the tarball itself, in a folder with
    // no package.json at all.
    const bare = path.join(work, 'bare');
    mkdirSync(bare);
    const oneLiner = await run(
      'npx',
      ['--yes', '-p', path.join(tarballs, packed.filename), 'tm-report', 'complete', '--help'],
      bare,
    );
    expect(oneLiner).toMatchObject({
      code: 0,
      out: expect.stringContaining('Usage: tm-report complete'),
    });

    writeFileSync(
      path.join(pipeline, 'reports/broken.xml'),
      '<testsuite>\n  <testcase name="a">\n',
    );
    const broken = await run(
      'npx',
      ['--no-install', 'tm-report', 'submit', '--dry-run', 'reports/broken.xml'],
      pipeline,
    );
    expect(broken.code).toBe(2);
    expect(broken.err).toContain('reports/broken.xml:2:3: invalid JUnit XML report');
  }, 200_000);
});
