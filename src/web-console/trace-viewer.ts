import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

/**
 * Where Playwright's trace viewer is served, below the console (`packages/console/vite.config.ts`
 * copies playwright-core's built viewer into the build's `trace/`):
 * `/console/trace/index.html?trace=<a trace.zip's signed link>` opens a result's trace.
 */
export const TRACE_VIEWER_PATH = '/console/trace/';

/**
 * The viewer's inline scripts, allowed by their SHA-256 (CSP's `'sha256-…'`): its
 * `index.html` carries one (the message shown when it is opened from a file), which the
 * policy would otherwise refuse with an error in the browser's console at every load.
 */
function inlineScriptHashes(files: string): string[] {
  const index = join(files, 'index.html');
  if (!existsSync(index)) return [];
  const html = readFileSync(index, 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`,
  );
}

/**
 * The viewer's policy, which differs from the console's pages in what the viewer needs and no
 * more: a service worker of its own (`worker-src 'self'`; registered from `sw.bundle.js`, its
 * scope is `/console/trace/` only, so it never sees the console's own requests), frames of its
 * own pages (each snapshot of the trace is a page its service worker makes, same origin, with
 * Playwright's own `script-src 'nonce-…'` policy, so a captured page's scripts never run; and a
 * blank `data:` page where an action has no snapshot, an opaque origin that reaches nothing),
 * images and screencast frames it makes from the trace (`blob:`, `data:`), and the inline
 * styles its components set. It still loads nothing from elsewhere: the trace comes through
 * its signed link on this origin. Framed by its own origin only.
 */
export function traceViewerPolicy(files: string): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes(files)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "frame-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** Whether a file of the built console (its path on disk) is one of the trace viewer's. */
export function isTraceViewerFile(files: string, path: string): boolean {
  return path.startsWith(join(files, 'trace') + sep);
}
