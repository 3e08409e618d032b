import { existsSync, readdirSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { TRACE_VIEWER_PATH } from './trace-viewer.js';
import { CONSOLE_FILES, CONSOLE_PATH } from './web-console.module.js';

/**
 * The folders whose text files the build compresses (`packages/console/vite.config.ts`), where
 * each is served: the console's hashed assets, and Playwright's trace viewer.
 */
const FOLDERS = [
  { path: `${CONSOLE_PATH}/assets/`, folder: 'assets' },
  { path: TRACE_VIEWER_PATH, folder: 'trace' },
] as const;

/** The copies the build writes, by Content-Encoding, in the order the service prefers them. */
const ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * The names of a built folder's compressed copies (`index-3f2a.js.br`, `assets/x.js.gz` below
 * it, with `/`), read once at start.
 */
function compressedCopies(name: string): Set<string> {
  const folder = join(CONSOLE_FILES, name);
  if (!existsSync(folder)) return new Set();
  return new Set(
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(?:br|gz)$/.test(file))
      .map((file) => file.split(sep).join('/')),
  );
}

/**
 * Serves a console asset (or a file of the trace viewer) as the compressed copy the build wrote
 * beside it that the browser's Accept-Encoding accepts (brotli, else gzip, else the file
 * itself): the request is pointed at the copy, which the console's static files then send with
 * the file's own type and headers. Every file that has copies answers `Vary: Accept-Encoding`,
 * so a shared cache keeps each encoding apart. Mounted before the console's files (`createApp`).
 */
export function precompressedAssets(): (req: Request, res: Response, next: NextFunction) => void {
  const served = FOLDERS.map(({ path, folder }) => ({ path, copies: compressedCopies(folder) }));
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const folder = served.find(({ path }) => req.path.startsWith(path));
    if (folder === undefined) return next();
    const name = req.path.slice(folder.path.length);
    const offered = ENCODINGS.filter(({ suffix }) => folder.copies.has(`${name}${suffix}`));
    if (offered.length === 0) return next();
    res.vary('Accept-Encoding');
    // The smallest copy the browser accepts at all (browsers list gzip first, unweighted).
    const copy = offered.find((o) => req.acceptsEncodings(o.encoding) === o.encoding);
    if (copy === undefined) return next();
    res.type(extname(name));
    res.setHeader('Content-Encoding', copy.encoding);
    req.url = `${folder.path}${name}${copy.suffix}`;
    next();
  };
}
