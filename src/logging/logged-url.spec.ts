import { OIDC_CALLBACK_PATH } from '../config/settings.js';
import { loggedUrl } from './logged-url.js';

describe('loggedUrl', () => {
  it('keeps a URL without secrets as it is', () => {
    expect(loggedUrl('/api/v1/builds?limit=5&offset=10')).toBe('/api/v1/builds?limit=5&offset=10');
    expect(loggedUrl('/api/v1/testruns')).toBe('/api/v1/testruns');
    expect(loggedUrl(undefined)).toBeUndefined();
  });

  it('keeps only the OIDC callback’s path', () => {
    expect(loggedUrl(`${OIDC_CALLBACK_PATH}?code=abc&state=xyz`)).toBe(
      `${OIDC_CALLBACK_PATH}?[redacted]`,
    );
  });

  it('redacts a signed link’s signature and keeps what identifies the request', () => {
    expect(
      loggedUrl('/api/v1/attachments/0193/content-get?expires=1790000000&signature=s3cr3t'),
    ).toBe('/api/v1/attachments/0193/content-get?expires=1790000000&signature=[redacted]');
  });

  it('redacts the trace viewer’s signed link and an S3 presigned URL’s parts, whatever their case', () => {
    const trace = encodeURIComponent(
      'https://h/api/v1/attachments/1/get?expires=1&signature=s3cr3t',
    );
    const logged = loggedUrl(`/console/trace/index.html?trace=${trace}`) ?? '';
    expect(logged).toBe('/console/trace/index.html?trace=[redacted]');
    const presigned = loggedUrl(
      '/bucket/key?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F1&X-Amz-Signature=abc&X-Amz-Security-Token=tok',
    );
    expect(presigned).not.toMatch(/AKIA|abc|tok/);
    expect(presigned).toContain('X-Amz-Algorithm=AWS4-HMAC-SHA256');
  });
});
