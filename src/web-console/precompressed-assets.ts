import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { CONSOLE_FILES, CONSOLE_PATH } from './web-console.module.js';

/** Where the console's hashed assets are served; the build compresses them (`precompressedAssets` in `packages/console/vite.config.ts`). */
const ASSETS_PATH = `${CONSOLE_PATH}/assets/`;

/** The copies the build writes, by Content-Encoding, in the order the service prefers them. */
const ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** The names of the built assets' compressed copies (`index-3f2a.js.br`), read once at start. */
function compressedCopies(): Set<string> {
  const folder = join(CONSOLE_FILES, 'assets');
  if (!existsSync(folder)) return new Set();
  return new Set(readdirSync(folder).filter((name) => /\.(?:br|gz)$/.test(name)));
}

/**
 * Serves a console asset as the compressed copy the build wrote beside it that the browser's
 * Accept-Encoding accepts (brotli, else gzip, else the file itself): the request is
 * pointed at the copy, which the console's static files then send with the asset's own type and
 * cache headers. Every asset that has copies answers `Vary: Accept-Encoding`, so a shared cache
 * keeps each encoding apart. Mounted before the console's files (`createApp`).
 */
export function precompressedAssets(): (req: Request, res: Response, next: NextFunction) => void {
  const copies = compressedCopies();
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.path.startsWith(ASSETS_PATH)) {
      return next();
    }
    const name = req.path.slice(ASSETS_PATH.length);
    const offered = ENCODINGS.filter(({ suffix }) => copies.has(`${name}${suffix}`));
    if (offered.length === 0) return next();
    res.vary('Accept-Encoding');
    // The smallest copy the browser accepts at all (browsers list gzip first, unweighted).
    const copy = offered.find((o) => req.acceptsEncodings(o.encoding) === o.encoding);
    if (copy === undefined) return next();
    res.type(extname(name));
    res.setHeader('Content-Encoding', copy.encoding);
    req.url = `${ASSETS_PATH}${name}${copy.suffix}`;
    next();
  };
}
