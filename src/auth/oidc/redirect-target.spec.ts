import { CONSOLE_HOME, consoleRedirectTarget } from './redirect-target.js';

describe('consoleRedirectTarget', () => {
  it.each([
    ['/console/organizations', '/console/organizations'],
    ['/console/runs/abc?status=failed&offset=50', '/console/runs/abc?status=failed&offset=50'],
    ['/console/projects/p#top', '/console/projects/p#top'],
  ])('keeps the console page %s', (requested, expected) => {
    expect(consoleRedirectTarget(requested)).toBe(expected);
  });

  it.each([
    ['another site', 'https://evil.example/console/x'],
    ['a scheme-relative URL', '//evil.example/console/x'],
    ['a backslash the browser reads as a slash', '/\\evil.example/console/x'],
    ['a backslash after the console', '/console/\\\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a path out of the console', '/console/../internal/v1/organizations'],
    ['an encoded path out of the console', '/console/%2e%2e/internal'],
    ['the API', '/internal/v1/session'],
    ['the sign-in page (a loop)', '/console/sign-in?redirect=/console/x'],
    ['the console without a page', '/console'],
    ['a relative path', 'console/organizations'],
    ['a tab in the host', '/\t/evil.example'],
    ['a newline', '/console/x\nSet-Cookie: a=b'],
    ['nothing', undefined],
    ['an array (repeated parameter)', ['/console/a', '/console/b']],
    ['an empty string', ''],
    ['a very long path', `/console/${'a'.repeat(3000)}`],
  ])('sends %s to the home page', (_name, requested) => {
    expect(consoleRedirectTarget(requested)).toBe(CONSOLE_HOME);
  });
});
