import { proxyFor, proxySettingsFrom } from './proxy.js';
import { secretsOf } from './output.js';

const PROXY = 'http://proxy.corp:3128';

/** The proxy `url` goes through under NO_PROXY `noProxy`: its host:port, or 'direct'. */
function routeOf(url: string, noProxy: string, env: Record<string, string> = {}): string {
  const settings = proxySettingsFrom({
    HTTPS_PROXY: PROXY,
    HTTP_PROXY: PROXY,
    NO_PROXY: noProxy,
    ...env,
  });
  return proxyFor(settings, new URL(url))?.name ?? 'direct';
}

describe('which proxy a call goes through', () => {
  it('takes https_proxy for https:// and http_proxy for http://, the lowercase name first, a bare host:port as http://', () => {
    const settings = proxySettingsFrom({
      https_proxy: 'secure.corp:8443',
      HTTPS_PROXY: 'http://ignored:1',
      HTTP_PROXY: 'http://plain.corp:80',
    });
    expect(proxyFor(settings, new URL('https://tm.example.com/api/v1'))).toMatchObject({
      name: 'secure.corp:8443',
      variable: 'https_proxy',
    });
    expect(proxyFor(settings, new URL('http://127.0.0.1:3000'))?.name).toBe('plain.corp');
    expect(proxySettingsFrom({ TM_URL: 'https://x', HTTPS_PROXY: '  ' })).toBeUndefined();
    expect(
      proxyFor(proxySettingsFrom({ HTTP_PROXY: PROXY }), new URL('https://x.io')),
    ).toBeUndefined();
  });

  it.each([
    ['*', 'https://tm.example.com', 'direct'],
    ['example.com', 'https://tm.example.com', 'direct'],
    ['example.com', 'https://example.com', 'direct'],
    ['.example.com', 'https://example.com', 'direct'],
    ['*.example.com', 'https://a.b.example.com', 'direct'],
    ['EXAMPLE.COM.', 'https://tm.example.com', 'direct'],
    ['example.com', 'https://notexample.com', 'proxy.corp:3128'],
    ['tm.example.com:443', 'https://tm.example.com', 'direct'],
    ['tm.example.com:8443', 'https://tm.example.com', 'proxy.corp:3128'],
    ['10.1.2.3', 'https://10.1.2.3:8443', 'direct'],
    ['10.0.0.0/8', 'https://10.20.30.40', 'direct'],
    ['10.0.0.0/8', 'https://11.0.0.1', 'proxy.corp:3128'],
    ['[::1]', 'http://[::1]:3000', 'direct'],
    ['::1', 'http://[::1]:3000', 'direct'],
    ['[::1]:3000', 'http://[::1]:3000', 'direct'],
    ['fd00::/8', 'https://[fd12::1]', 'direct'],
    ['localhost', 'http://127.0.0.1:3000', 'proxy.corp:3128'],
    ['nonsense/99, ,,localhost', 'http://localhost:3000', 'direct'],
    ['', 'https://tm.example.com', 'proxy.corp:3128'],
  ])('NO_PROXY=%j: %s goes %s', (noProxy, url, route) => {
    expect(routeOf(url, noProxy)).toBe(route);
  });

  it('sends the URL user and password as Basic credentials, and redacts them in what is printed', () => {
    const settings = proxySettingsFrom({
      HTTPS_PROXY: 'http://ci%40corp:p%3Ass-word-1@proxy.corp:3128/',
    });
    expect(settings?.https).toMatchObject({
      name: 'proxy.corp:3128',
      authorization: `Basic ${Buffer.from('ci@corp:p:ss-word-1').toString('base64')}`,
    });
    expect(settings?.https?.url.href).toBe('http://proxy.corp:3128/');
    const secrets = secretsOf({ HTTPS_PROXY: 'http://ci%40corp:p%3Ass-word-1@proxy.corp:3128/' });
    expect(secrets).toEqual(
      expect.arrayContaining([
        'p:ss-word-1',
        'p%3Ass-word-1',
        Buffer.from('ci@corp:p:ss-word-1').toString('base64'),
      ]),
    );
  });

  it('refuses a proxy address it cannot read or speak to, naming the variable, never the value', () => {
    expect(() => proxySettingsFrom({ https_proxy: 'http://user:hunter22@' })).toThrow(
      /^https_proxy is not a proxy address: give http:\/\/host:port/,
    );
    expect(() => proxySettingsFrom({ HTTP_PROXY: 'socks5://user:hunter22@proxy:1080' })).toThrow(
      'HTTP_PROXY names a socks5 proxy: tm-report speaks to http:// and https:// proxies only.',
    );
  });
});
