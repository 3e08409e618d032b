import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCommand } from './args.js';

/** A working directory holding `files`. */
function folderWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tm-report-config-'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(
      path.join(dir, file),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  }
  return dir;
}

const SETTINGS = {
  project: 'WEB',
  runName: 'e2e',
  configuration: 'chromium',
  reports: ['reports/**/*.xml', 'results.json'],
  gate: true,
  buildName: 'web main',
};

describe('the settings file (tm-report.config.json, package.json "tmReport", --config)', () => {
  it('makes `tm-report submit` alone a whole command', () => {
    const cwd = folderWith({ 'tm-report.config.json': SETTINGS });
    expect(parseCommand(['submit'], {}, cwd)).toMatchObject({
      name: 'submit',
      patterns: ['reports/**/*.xml', 'results.json'],
      project: 'WEB',
      runName: 'e2e',
      configuration: 'chromium',
      gate: true,
      buildName: 'web main',
      complete: false,
    });
  });

  it('lets flags and TM_CONFIGURATION win over the file, and the command line name the reports', () => {
    const cwd = folderWith({ 'tm-report.config.json': SETTINGS });
    expect(
      parseCommand(
        ['submit', 'other.xml', '--run-name', 'nightly', '--configuration', 'firefox'],
        {},
        cwd,
      ),
    ).toMatchObject({
      patterns: ['other.xml'],
      runName: 'nightly',
      project: 'WEB',
      configuration: 'firefox',
    });
    expect(parseCommand(['submit'], { TM_CONFIGURATION: 'webkit' }, cwd)).toMatchObject({
      configuration: 'webkit',
    });
  });

  it('reads the "tmReport" object of package.json, and a file --config names instead', () => {
    const cwd = folderWith({
      'package.json': { name: 'web', tmReport: { project: 'PKG', runName: 'from-package' } },
      'ci/tm.json': { project: 'CI', runId: '0b6c6d2e-7a8f-4c1e-9d3b-2f1a0e9c8b7a' },
    });
    expect(parseCommand(['complete'], {}, cwd)).toMatchObject({
      name: 'complete',
      project: 'PKG',
      runName: 'from-package',
    });
    expect(parseCommand(['complete', '--config', 'ci/tm.json'], {}, cwd)).toMatchObject({
      project: 'CI',
      runId: '0b6c6d2e-7a8f-4c1e-9d3b-2f1a0e9c8b7a',
      runName: undefined,
    });
  });

  it('gives complete only the keys it takes (one file serves both commands)', () => {
    const cwd = folderWith({ 'tm-report.config.json': { ...SETTINGS, complete: true } });
    const command = parseCommand(['complete'], {}, cwd);
    expect(command).toMatchObject({ name: 'complete', project: 'WEB', gate: true });
    expect(command).not.toHaveProperty('configuration');
    expect(command).not.toHaveProperty('patterns');
  });

  it.each([
    [
      { project: 'WEB', runname: 'x' },
      'tm-report.config.json: unknown key "runname"; the keys are reports, ',
    ],
    [{ gate: 'yes' }, 'tm-report.config.json: "gate" must be true or false, not a string.'],
    [{ project: 7 }, 'tm-report.config.json: "project" must be a string, not a number.'],
    [
      { reports: [] },
      'tm-report.config.json: "reports" must be a file or glob, or a non-empty list',
    ],
    [{ json: true }, 'tm-report.config.json: unknown key "json"'],
    [['WEB'], 'tm-report.config.json must be a JSON object of settings.'],
    ['{"project": ', 'tm-report.config.json is not valid JSON: '],
  ])('refuses %j naming the file and the key', (content, message) => {
    const cwd = folderWith({ 'tm-report.config.json': content });
    expect(() => parseCommand(['submit'], {}, cwd)).toThrow(message);
  });

  it('names package.json "tmReport" and a missing --config file in its errors', () => {
    const cwd = folderWith({ 'package.json': { tmReport: { runName: ['x'] } } });
    expect(() => parseCommand(['submit', 'a.xml'], {}, cwd)).toThrow(
      'package.json "tmReport": "runName" must be a string, not a list.',
    );
    expect(() => parseCommand(['submit', '--config', 'nope.json'], {}, cwd)).toThrow(
      '--config nope.json: no such file.',
    );
  });

  it('takes pathRoot, the --path-root flag, as a known key', () => {
    const cwd = folderWith({
      'tm-report.config.json': {
        pathRoot: 'services/web',
        reports: 'a.xml',
        project: 'W',
        runName: 'r',
      },
    });
    expect(() => parseCommand(['submit'], {}, cwd)).not.toThrow();
  });
});
