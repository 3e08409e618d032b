import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ReporterError } from './errors.js';

const GLOB_CHARS = /[*?{[]/;

const escapeRegExp = (text: string) => text.replace(/[.+^$()|\\\]/[{}*?-]/g, '\\$&');

/** `*`, `?`, `**` (any directories) and `{a,b}` as a regular expression over a `/`-path. */
export function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        re += '(?:[^/]*/)*';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{' && pattern.indexOf('}', i) > i) {
      const end = pattern.indexOf('}', i);
      re += `(?:${pattern
        .slice(i + 1, end)
        .split(',')
        .map(escapeRegExp)
        .join('|')})`;
      i = end;
    } else re += escapeRegExp(c);
  }
  return new RegExp(`^${re}$`);
}

/** Files under `dir` (as `dir/...` paths), no deeper than `depth`; skips dot-entries and node_modules. */
function* walk(dir: string, prefix: string, depth: number): Generator<string> {
  if (depth <= 0) return;
  let entries;
  try {
    entries = readdirSync(dir === '' ? '.' : dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const child = `${prefix}${entry.name}`;
    const full = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(full, `${child}/`, depth - 1);
    else if (entry.isFile()) yield child;
  }
}

/** The files a pattern names: a path as is, or the files a glob matches (sorted). */
export function filesOf(pattern: string, cwd: string): string[] {
  const posix = pattern.split(path.sep).join('/');
  if (!GLOB_CHARS.test(posix)) {
    const full = path.resolve(cwd, pattern);
    if (!existsSync(full)) throw new ReporterError(`${pattern}: no such file.`);
    if (!statSync(full).isFile()) throw new ReporterError(`${pattern}: not a file.`);
    return [pattern];
  }
  const segments = posix.split('/');
  const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
  const base = segments.slice(0, firstGlob).join('/');
  const rest = segments.slice(firstGlob);
  const depth = rest.includes('**') || rest.some((s) => s.includes('**')) ? Infinity : rest.length;
  const matcher = globToRegExp(rest.join('/'));
  const root = base === '' ? cwd : path.resolve(cwd, base || '/');
  const prefix = firstGlob === 0 ? '' : `${base}/`;
  const found: string[] = [];
  for (const relative of walk(root, '', depth)) {
    if (matcher.test(relative)) found.push(`${prefix}${relative}`);
  }
  if (found.length === 0) throw new ReporterError(`${pattern}: no files match.`);
  return found.sort();
}

/** Every file the patterns name, each once, in the order given. */
export function expandPatterns(patterns: string[], cwd: string): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  for (const pattern of patterns) {
    for (const file of filesOf(pattern, cwd)) {
      const key = path.resolve(cwd, file);
      if (seen.has(key)) continue;
      seen.add(key);
      files.push(file);
    }
  }
  return files;
}
