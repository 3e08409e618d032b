import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { allureResultFiles, readAllureFolder } from './allure.js';

/** Writes Allure results into a fresh folder; returns the folder. */
function folderOf(results: object[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tm-allure-'));
  mkdirSync(path.join(dir, 'allure-results'));
  results.forEach((result, i) =>
    writeFileSync(path.join(dir, 'allure-results', `${i}-result.json`), JSON.stringify(result)),
  );
  writeFileSync(path.join(dir, 'allure-results', 'c-container.json'), '{"children": []}');
  return dir;
}

const read = (dir: string, pathRoot?: string) =>
  readAllureFolder(allureResultFiles('allure-results', dir), dir, pathRoot);

const result = (fields: object) => ({
  fullName: 'cart.spec.js › Cart › pays',
  name: 'pays',
  status: 'passed',
  start: 1_000,
  stop: 1_250,
  ...fields,
});

describe('an Allure results folder', () => {
  it('maps each status: broken is a failure of type broken, unknown (or none) is retest', () => {
    const dir = folderOf(
      ['passed', 'failed', 'broken', 'skipped', 'unknown', undefined].map((status, i) =>
        result({ fullName: `t${i}`, status, statusDetails: { message: 'm', trace: 's' } }),
      ),
    );
    expect(read(dir).map((item) => [item.status, item.failure_type])).toEqual([
      ['passed', undefined],
      ['failed', undefined],
      ['failed', 'broken'],
      ['skipped', undefined],
      ['retest', undefined],
      ['retest', undefined],
    ]);
  });

  it('groups the attempts of one historyId: the latest by stop is final, the earlier its attempts', () => {
    const dir = folderOf([
      result({ historyId: 'h', status: 'passed', start: 3_000, stop: 3_100 }),
      result({
        historyId: 'h',
        status: 'failed',
        start: 1_000,
        stop: 1_500,
        statusDetails: { message: 'first' },
      }),
      result({
        historyId: 'h',
        status: 'broken',
        start: 2_000,
        stop: 2_040,
        statusDetails: { message: 'second', trace: 'at x' },
      }),
    ]);
    expect(read(dir)).toEqual([
      {
        automation_id: 'cart.spec.js › Cart › pays',
        title: 'pays',
        status: 'passed',
        duration_ms: 100,
        executed_at: new Date(3_000).toISOString(),
        attempts: [
          { status: 'failed', duration_ms: 500, message: 'first' },
          {
            status: 'failed',
            duration_ms: 40,
            message: 'second',
            failure_type: 'broken',
            stack_trace: 'at x',
          },
        ],
      },
    ]);
  });

  it('keeps a test run in two projects apart: the parameters not excluded are its configuration', () => {
    const dir = folderOf(
      ['desktop', 'mobile'].flatMap((project) => [
        result({
          historyId: `h:${project}`,
          status: 'failed',
          parameters: [{ name: 'Project', value: project }],
        }),
        result({
          historyId: `h:${project}`,
          stop: 2_000,
          parameters: [
            { name: 'Project', value: project },
            { name: 'Retry', value: '1', excluded: true },
          ],
        }),
      ]),
    );
    expect(
      read(dir).map((item) => [item.configuration, item.status, item.attempts?.length]),
    ).toEqual([
      ['desktop', 'passed', 1],
      ['mobile', 'passed', 1],
    ]);
  });

  it('takes the path root off a fullName, and shortens a long one as the service does (§13)', () => {
    const long = `${'x'.repeat(1_050)}`;
    const dir = folderOf([
      result({ fullName: '/ci/app/tests/a.spec.ts#adds' }),
      result({ fullName: long }),
      result({ fullName: undefined, name: 'only a name' }),
    ]);
    const ids = read(dir, '/ci/app/').map((item) => item.automation_id as string);
    expect(ids).toHaveLength(3);
    expect(ids).toContain('tests/a.spec.ts#adds');
    expect(ids).toContain('only a name');
    const short = ids.find((id) => id.startsWith('xxx')) as string;
    expect(short).toHaveLength(1_000);
    expect(short).toMatch(/^x{983}~[0-9a-f]{16}$/);
  });

  it('refuses a result that names no test or has a status Allure has not, naming the file', () => {
    expect(() => read(folderOf([{ status: 'passed' }]))).toThrow(
      'allure-results/0-result.json:1: invalid Allure result: it has neither fullName nor name.',
    );
    expect(() => read(folderOf([result({ status: 'green' })]))).toThrow(
      'allure-results/0-result.json:1: invalid Allure result: status "green" is not one of passed, failed, broken, skipped, unknown.',
    );
    const dir = folderOf([]);
    writeFileSync(path.join(dir, 'allure-results', '0-result.json'), '{\n  "name": "a",\n}');
    expect(() => read(dir)).toThrow(
      /^allure-results\/0-result\.json:3: invalid Allure result: not valid JSON/,
    );
  });
});
