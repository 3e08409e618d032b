import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathRootOf } from './path-root.js';

describe('the path root sent with every report', () => {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'tm-path-root-')));

  it('is the folder given, absolute, ending with a separator', () => {
    expect(pathRootOf('/ci/app', dir)).toBe('/ci/app/');
    expect(pathRootOf('/ci/app/', dir)).toBe('/ci/app/');
    expect(pathRootOf('checkout', dir)).toBe(`${dir}/checkout/`);
  });

  it("is the repository's top level when the working directory is inside one", () => {
    const repo = path.join(dir, 'repo');
    mkdirSync(path.join(repo, 'packages', 'web'), { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    expect(pathRootOf(undefined, path.join(repo, 'packages', 'web'))).toBe(`${repo}/`);
  });

  it('is the working directory outside a repository', () => {
    const outside = path.join(dir, 'plain');
    mkdirSync(outside);
    expect(pathRootOf(undefined, outside)).toBe(`${outside}/`);
  });

  it('is refused when longer than the service takes', () => {
    expect(() => pathRootOf(`/${'a'.repeat(1_100)}`, dir)).toThrow(/at most 1024/);
  });
});
