import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ReporterError } from './errors.js';

/** The longest `path_root` the service takes. */
const MAX_PATH_ROOT = 1024;

/**
 * The `path_root` sent with every report (CONTRACT §14): the prefix the service takes off the
 * file paths in a report, so that its ids do not depend on where the checkout lay. It is the
 * folder given (`--path-root`, `TM_PATH_ROOT`), else the repository's top level, else the
 * working directory: absolute, ending with a separator, so that `/ci/app` does not take
 * `/ci/app` off `/ci/app-2/x.spec.ts`.
 */
export function pathRootOf(given: string | undefined, cwd: string): string {
  const folder = path.resolve(cwd, given ?? gitTopLevel(cwd) ?? '.');
  const root = folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`;
  if (root.length > MAX_PATH_ROOT) {
    throw new ReporterError(
      `The path root ${given === undefined ? `${root} (the repository's top level or the working directory)` : root} is ${root.length} characters long; the service takes at most ${MAX_PATH_ROOT}: give a shorter one with --path-root.`,
    );
  }
  return root;
}

/** The top level of the git repository `cwd` is in; undefined without git or a repository. */
function gitTopLevel(cwd: string): string | undefined {
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    }).trim();
    return top === '' ? undefined : top;
  } catch {
    return undefined;
  }
}
