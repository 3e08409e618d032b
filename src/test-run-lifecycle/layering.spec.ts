import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(import.meta.dirname, '..');

/** The folders of `src/` a folder's files import at run time (type-only imports aside). */
function runTimeImportsOf(folder: string): Set<string> {
  const folders = new Set<string>();
  const files = readdirSync(path.join(SRC, folder), { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'),
  );
  for (const file of files) {
    const text = readFileSync(path.join(SRC, folder, file), 'utf8');
    for (const [, typeOnly, clause, specifier] of text.matchAll(
      /^\s*(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+'(\.[^']+)'/gm,
    )) {
      const named = /^\{([^}]*)\}$/.exec(clause.trim());
      const onlyTypes =
        named !== null &&
        named[1]
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
          .every((name) => name.startsWith('type '));
      if (typeOnly || onlyTypes) continue;
      const target = path.relative(SRC, path.resolve(SRC, folder, path.dirname(file), specifier));
      folders.add(target.split(path.sep)[0]);
    }
  }
  folders.delete(folder);
  return folders;
}

describe('the run lifecycle depends downward', () => {
  it('testruns/, the low core, imports none of the features built on runs', () => {
    const above = ['results', 'insights', 'flakiness', 'test-run-lifecycle'];
    expect([...runTimeImportsOf('testruns')].filter((f) => above.includes(f))).toEqual([]);
  });

  it('results/ imports neither the lifecycle nor insights, which reads results', () => {
    const above = ['insights', 'test-run-lifecycle'];
    expect([...runTimeImportsOf('results')].filter((f) => above.includes(f))).toEqual([]);
  });

  it('releases/ imports none of the features built on releases (their progress is above them)', () => {
    const above = ['builds', 'testruns', 'results', 'insights', 'release-progress'];
    expect([...runTimeImportsOf('releases')].filter((f) => above.includes(f))).toEqual([]);
  });

  it('nothing imports the lifecycle but the application module', () => {
    const importers = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'test-run-lifecycle')
      .filter((entry) => runTimeImportsOf(entry.name).has('test-run-lifecycle'))
      .map((entry) => entry.name);
    expect(importers).toEqual([]);
  });
});
