import type { Env } from './config.js';

/**
 * A proxy variable's URL and the credentials in it: apart from proxy.ts so that output.ts can
 * redact them without importing what proxy.ts imports.
 */

/** A proxy's URL; one without a scheme is http://, as curl takes it. Undefined if unparsable. */
export function parseProxyUrl(value: string): URL | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    return undefined;
  }
}

/** Percent-decoded userinfo; a malformed escape is kept as written. */
export function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The proxies' credentials in `env`, in every form a message could hold them. */
export function proxySecretsOf(env: Env): string[] {
  const secrets: string[] = [];
  for (const name of ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY']) {
    const url = parseProxyUrl(env[name]?.trim() ?? '');
    if (!url?.password) continue;
    const password = decoded(url.password);
    const credentials = `${decoded(url.username)}:${password}`;
    secrets.push(url.password, password, Buffer.from(credentials).toString('base64'));
  }
  return secrets;
}
