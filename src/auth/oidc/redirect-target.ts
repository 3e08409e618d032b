/** Where a sign-in lands when it asked for nothing (or for something not allowed). */
export const CONSOLE_HOME = '/console/organizations';
const SIGN_IN_PAGE = '/console/sign-in';

/**
 * The console page to land on after signing in: a same-origin path under `/console/` only, so
 * a crafted sign-in link cannot send the operator to another site (`//evil`, `/\evil`,
 * `https://evil`) or out of the console (`/console/../internal`). Anything else, the home page.
 */
export function consoleRedirectTarget(requested: unknown): string {
  if (typeof requested !== 'string' || requested.length > 2048) return CONSOLE_HOME;
  // Backslashes and control characters are read as `/` or dropped by some browsers.
  if (!requested.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(requested)) return CONSOLE_HOME;
  let url: URL;
  try {
    url = new URL(requested, 'https://console.invalid');
  } catch {
    return CONSOLE_HOME;
  }
  if (url.origin !== 'https://console.invalid') return CONSOLE_HOME;
  if (!url.pathname.startsWith('/console/') || url.pathname.startsWith(SIGN_IN_PAGE)) {
    return CONSOLE_HOME;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}
