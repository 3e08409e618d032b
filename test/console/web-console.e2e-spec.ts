import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { HTTPS, startApp, type TestApp } from '../support/app.js';

/** The console as `npm run build` left it (the suite builds first). */
const BUILT = 'dist/console';
const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('web console files', () => {
  let t: TestApp;
  let index: string;
  let script: string;
  beforeAll(async () => {
    t = await startApp();
    index = readFileSync(`${BUILT}/index.html`, 'utf8');
    // The entry script (lazily loaded chunks sit beside it).
    script = /src="\/console\/assets\/([^"]+\.js)"/.exec(index)?.[1] ?? '';
    expect(readdirSync(`${BUILT}/assets`)).toContain(script);
  });
  afterAll(() => t.close());

  it('sends /console to /console/', async () => {
    const res = await t.http.get('/console').set(HTTPS);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/console/');
  });

  it.each([
    '/console/',
    '/console/organizations',
    '/console/organizations/9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b?offset=25',
  ])('answers %s with the page, never cached without asking again', async (path) => {
    const res = await t.http.get(path).set(HTTPS);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(index);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('serves hashed assets for a year, immutable', async () => {
    expect(index).toContain(`/console/assets/${script}`);
    const res = await t.http.get(`/console/assets/${script}`).set(HTTPS);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['', undefined],
  ])(
    'sends the entry script to Accept-Encoding “%s” as %s, precompressed',
    async (accepted, encoding) => {
      const res = await t.http
        .get(`/console/assets/${script}`)
        .set({ ...HTTPS, 'Accept-Encoding': accepted });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      // What was sent is the build's copy (the client decodes it), which decodes to the script.
      const file = readFileSync(`${BUILT}/assets/${script}`);
      const suffix = { br: '.br', gzip: '.gz' }[encoding ?? ''] ?? '';
      const sent = readFileSync(`${BUILT}/assets/${script}${suffix}`);
      expect(Number(res.headers['content-length'])).toBe(sent.length);
      const decode = { br: brotliDecompressSync, gzip: gunzipSync }[encoding ?? ''];
      expect((decode ? decode(sent) : sent).equals(file)).toBe(true);
      if (encoding !== undefined) expect(sent.length).toBeLessThan(file.length / 3);
    },
  );

  it('serves the favicon the page links to', async () => {
    expect(index).toContain('<link rel="icon" type="image/svg+xml" href="/console/favicon.svg"');
    const res = await t.http.get('/console/favicon.svg').set(HTTPS);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('serves Playwright’s trace viewer below the console, with a policy of its own', async () => {
    const viewer = readFileSync(`${BUILT}/trace/index.html`, 'utf8');
    const res = await t.http.get('/console/trace/index.html').set(HTTPS);
    expect(res.status).toBe(200);
    expect(res.text).toBe(viewer);
    expect(res.text).toContain('<title>Playwright Trace Viewer</title>');
    expect(res.headers['cache-control']).toBe('no-cache');
    const policy = res.headers['content-security-policy'];
    // Its service worker and its snapshots' frames; framed by its own origin only.
    expect(policy).toContain("worker-src 'self'");
    expect(policy).toContain("frame-src 'self' data:");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("connect-src 'self'");
    // Its one inline script is allowed by its hash, not by 'unsafe-inline'.
    const inline = /<script>([\s\S]*?)<\/script>/.exec(viewer)?.[1] ?? '';
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(policy).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(policy).not.toContain("'unsafe-eval'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);

    const worker = await t.http.get('/console/trace/sw.bundle.js').set(HTTPS);
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toMatch(/javascript/);
    expect(worker.headers['content-security-policy']).toBe(policy);
    // Its scripts travel compressed, as the console's do: 1.4 MB of them.
    const script = /src="\.\/([^"]+\.js)"/.exec(viewer)?.[1] ?? '';
    const views = /href="\.\/(assets\/defaultSettingsView[^"]+\.js)"/.exec(viewer)?.[1] ?? '';
    for (const name of [script, views, 'sw.bundle.js']) {
      const file = readFileSync(`${BUILT}/trace/${name}`);
      const sent = await t.http
        .get(`/console/trace/${name}`)
        .set({ ...HTTPS, 'Accept-Encoding': 'gzip, deflate, br' });
      expect(sent.status).toBe(200);
      expect(sent.headers['content-encoding']).toBe('br');
      expect(sent.headers['content-type']).toMatch(/javascript/);
      expect(sent.headers['content-security-policy']).toBe(policy);
      // What was sent is the build's copy, which decodes to the file.
      const copy = readFileSync(`${BUILT}/trace/${name}.br`);
      expect(Number(sent.headers['content-length'])).toBe(copy.length);
      expect(brotliDecompressSync(copy).equals(file)).toBe(true);
      expect(copy.length).toBeLessThan(file.length / 2);
    }
    // The console's own pages keep theirs.
    const page = await t.http
      .get('/console/results/9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b')
      .set(HTTPS);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).not.toContain('worker-src');
  });

  it.each([
    ['a missing asset', 'get', '/console/assets/index-missing.js'],
    ['a path that only starts like the console', 'get', '/consolefoo'],
    ['an unknown path outside it', 'get', '/nowhere/console'],
    ['a POST under the console', 'post', '/console/organizations'],
    ['an unknown API path', 'get', '/api/v1/console'],
  ] as const)('answers %s with the API’s 404 envelope', async (_name, method, path) => {
    const res = await t.http[method](path).set(HTTPS);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: 'not_found', message: expect.any(String), details: {} });
  });

  it('is served over HTTPS only, like the API', async () => {
    const res = await t.http.get('/console/');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('https_required');
  });
});
