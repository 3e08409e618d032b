import { OIDC_CALLBACK_PATH } from '../config/settings.js';

/**
 * Query parameters whose values are bearer secrets: a signed link's `signature` (the service's
 * attachment links, CONTRACT §15: whoever has the URL has the bytes until it expires), the
 * trace viewer's `trace` (a whole signed link), and an S3 presigned URL's own parts.
 */
const SECRET_PARAMETERS = new Set([
  'signature',
  'trace',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
]);
const HAS_SECRET = /[?&](signature|trace|x-amz-signature|x-amz-credential|x-amz-security-token)=/i;

/**
 * The URL as logged: the OIDC callback's query carries the provider's one-time code and the
 * flow's state, which no log should keep, so only its path is; a signed link keeps its path
 * and its other parameters (an attachment's id, the expiry), its secrets shown as redacted.
 */
export function loggedUrl(url: string | undefined): string | undefined {
  if (url === undefined) return url;
  if (url.startsWith(`${OIDC_CALLBACK_PATH}?`)) return `${OIDC_CALLBACK_PATH}?[redacted]`;
  if (!HAS_SECRET.test(url)) return url;
  const at = url.indexOf('?');
  const query = new URLSearchParams(url.slice(at + 1));
  const kept = [...query].map(([name, value]) =>
    SECRET_PARAMETERS.has(name.toLowerCase())
      ? `${encodeURIComponent(name)}=[redacted]`
      : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
  );
  return `${url.slice(0, at)}?${kept.join('&')}`;
}
