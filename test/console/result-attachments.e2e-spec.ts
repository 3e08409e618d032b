import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type APIRequestContext, type Request } from 'playwright-core';
import { CHROMIUM, expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { json, seedApiKey, seedOrganization, seedProject, signIn } from './seed.js';

/** The widths the page is checked at: a laptop's, and a narrow window's. */
const WIDTHS = [1280, 800] as const;
/** What the console shows of a text: its first 256 KB. */
const TEXT_SHOWN = 256 * 1024;

/** Where a script that ran would call back to (the service answers 404; the request is the proof). */
const CALLBACK = '/console/attachment-script-ran';

/** Bytes as an attachment of the §15 API describes them. */
function described(name: string, contentType: string, bytes: Buffer) {
  return {
    automation_id: 'checkout.pays',
    name,
    content_type: contentType,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/**
 * What a failed end-to-end test leaves, made here by a real browser: a screenshot of the failing
 * page, a recording (a canvas played into MediaRecorder: WebM, as Playwright's videos are), and
 * a Playwright trace of the steps that led to it (Playwright's own tracing).
 */
async function evidenceOfARealRun(): Promise<{ png: Buffer; webm: Buffer; trace: Buffer }> {
  const folder = mkdtempSync(join(tmpdir(), 'console-trace-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ viewport: { width: 640, height: 360 } });
    await context.tracing.start({ screenshots: true, snapshots: true, title: 'Pays by card' });
    const page = await context.newPage();
    await page.setContent(
      '<main><h1>Checkout</h1><label>Card <input id="card"></label><button>Pay</button>' +
        '<p id="answer" role="alert"></p></main>' +
        '<canvas width="320" height="180"></canvas>',
    );
    await page.getByLabel('Card').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.evaluate(
      `document.getElementById('answer').textContent = 'Card declined (code 4021)'`,
    );
    const png = await page.screenshot();
    await context.tracing.stop({ path: join(folder, 'trace.zip') });
    const webm = Buffer.from(
      await page.evaluate<string>(`(async () => {
        const canvas = document.querySelector('canvas');
        const drawing = canvas.getContext('2d');
        const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
        const chunks = [];
        recorder.ondataavailable = (event) => chunks.push(event.data);
        const stopped = new Promise((resolve) => (recorder.onstop = resolve));
        recorder.start();
        for (let frame = 0; frame < 30; frame++) {
          drawing.fillStyle = frame % 2 ? '#b3261e' : '#0b57d0';
          drawing.fillRect(0, 0, 320, 180);
          drawing.fillStyle = '#fff';
          drawing.font = '32px sans-serif';
          drawing.fillText('Pay: frame ' + frame, 20, 100);
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
        recorder.stop();
        await stopped;
        const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
        let text = '';
        for (const byte of bytes) text += String.fromCharCode(byte);
        return btoa(text);
      })()`),
      'base64',
    );
    return { png, webm, trace: readFileSync(join(folder, 'trace.zip')) };
  } finally {
    await browser.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A log of a few thousand lines, over 256 KB, ending with a line the page must not show. */
function longLog(): Buffer {
  const lines: string[] = [];
  for (let i = 1; lines.join('\n').length < 300 * 1024; i++) {
    lines.push(
      `${String(i).padStart(5, '0')} [checkout] step ${i}: waiting for the payment provider — ok`,
    );
  }
  lines.push('THE LAST LINE');
  return Buffer.from(lines.join('\n'));
}

/**
 * Waits until `check` holds (a page's element, read through Playwright's evaluate: the console's
 * policy refuses the `eval` that `waitForFunction` polls a string with).
 */
async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not so after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A result's attachments in the console (issue 30): a failed payment test whose pipeline
 * attached, through CONTRACT §15, a screenshot, a recording, a Playwright trace, a log over
 * 256 KB, a JSON file and, from an attacker's point of view, an HTML page and an SVG that
 * carry scripts (and the HTML again, sent as text). The page shows each beside the failure (an image with a larger view, a video
 * to play, the log's first 256 KB), opens the trace in Playwright's own viewer served on the
 * console's origin, and never lets the HTML or the SVG run there.
 */
describe('web console: a result’s attachments', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let pipeline: Record<string, string>;
  let resultId: string;
  let attachmentDir: string;
  let log: Buffer;
  /** Requests the browser made to `CALLBACK`: any is a script of an attachment that ran. */
  const callbacks: string[] = [];

  const html = (base: string) =>
    Buffer.from(
      `<!doctype html><title>report</title><h1>Report</h1>` +
        `<script>localStorage.setItem('attachment-ran', 'html');` +
        `fetch('${base}${CALLBACK}?from=html');</script>`,
    );
  const svg = (base: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" ` +
        `onload="fetch('${base}${CALLBACK}?from=svg-onload')">` +
        `<script>fetch('${base}${CALLBACK}?from=svg-script')</script>` +
        `<rect width="40" height="40" fill="red"/></svg>`,
    );

  beforeAll(async () => {
    attachmentDir = mkdtempSync(join(tmpdir(), 'console-attachments-'));
    stack = await startConsoleStack('console_result_attachments', {
      ATTACHMENT_DIR: attachmentDir,
    });
    ({ browser, outside } = stack);
    browser.context.on('request', (request: Request) => {
      if (new URL(request.url()).pathname === CALLBACK) callbacks.push(request.url());
    });
    const org = await seedOrganization(outside, { name: 'Evidence Ltd', plan: 'pro' });
    const key = await seedApiKey(outside, org.id, [
      'testruns:create',
      'testruns:read',
      'results:submit',
      'results:read',
    ]);
    pipeline = { Authorization: `Bearer ${key}` };
    const project = await seedProject(outside, org.id, { name: 'Web shop', key: 'WEB' });
    const run = await json<{ id: string }>(
      outside.post('/api/v1/testruns', {
        headers: pipeline,
        data: { project_id: project.id, name: 'Nightly' },
      }),
    );
    await json(
      outside.post(`/api/v1/testruns/${run.id}/results`, {
        headers: pipeline,
        data: {
          results: [
            {
              automation_id: 'checkout.pays',
              title: 'Pays by card',
              status: 'failed',
              message: 'Card declined (code 4021)',
              stack_trace: 'Error: Card declined (code 4021)\n    at pays (checkout.spec.ts:42:17)',
            },
          ],
        },
      }),
    );
    const { png, webm, trace } = await evidenceOfARealRun();
    log = longLog();
    const files: Array<[string, string, Buffer]> = [
      ['failure.png', 'image/png', png],
      ['video.webm', 'video/webm', webm],
      ['trace.zip', 'application/zip', trace],
      ['console.log', 'text/plain; charset=utf-8', log],
      ['network.json', 'application/json', Buffer.from('{"status": 402, "reason": "declined"}')],
      ['report.html', 'text/html', html(stack.base)],
      ['badge.svg', 'image/svg+xml', svg(stack.base)],
      ['page.txt', 'text/plain', html(stack.base)],
    ];
    const { data } = await json<{
      data: Array<{ id: string; upload: { url: string; headers: Record<string, string> } | null }>;
    }>(
      outside.post(`/api/v1/testruns/${run.id}/attachments`, {
        headers: pipeline,
        data: { attachments: files.map(([name, type, bytes]) => described(name, type, bytes)) },
      }),
    );
    for (const [at, attachment] of data.entries()) {
      // The same bytes twice (the HTML, then as text): kept once, sent once.
      if (attachment.upload === null) continue;
      await json(
        outside.put(attachment.upload.url, {
          headers: attachment.upload.headers,
          data: files[at][2],
        }),
        200,
      );
    }
    await json(
      outside.post(`/api/v1/testruns/${run.id}/attachments/complete`, {
        headers: pipeline,
        data: { ids: data.map((a) => a.id) },
      }),
      200,
    );
    const results = await json<{ data: Array<{ id: string }> }>(
      outside.get(`/api/v1/testruns/${run.id}/results`, { headers: pipeline }),
      200,
    );
    resultId = results.data[0].id;
  }, STACK_START_MS);

  afterAll(async () => {
    await stack?.stop();
    rmSync(attachmentDir, { recursive: true, force: true });
  });

  const page = () => browser.page;
  const item = (name: string) => page().locator(`li[data-attachment="${name}"]`);

  /** The page's width beyond the window's, once laid out for the window's width. */
  async function overflow(ms = 3_000): Promise<number> {
    const deadline = Date.now() + ms;
    for (;;) {
      const beyond = await page().evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      if (beyond <= 0 || Date.now() > deadline) return beyond;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('lists the result’s attachments with links that expire, for the operator only', async () => {
    const answer = await outside.get(`/internal/v1/results/${resultId}/attachments`, {
      headers: { Authorization: 'Bearer console-operator-token-0123456789' },
    });
    expect(answer.status()).toBe(200);
    const { data } = (await answer.json()) as {
      data: Array<{
        name: string;
        content_type: string;
        size: number;
        content_url: string;
        content_expires_at: string;
      }>;
    };
    expect(data.map((a) => a.name)).toEqual([
      'failure.png',
      'video.webm',
      'trace.zip',
      'console.log',
      'network.json',
      'report.html',
      'badge.svg',
      'page.txt',
    ]);
    expect(data[3]).toMatchObject({ content_type: 'text/plain; charset=utf-8', size: log.length });
    expect(data[0].content_url).toMatch(
      new RegExp(
        `^${stack.base}/api/v1/attachments/[0-9a-f-]{36}/download\\?expires=\\d+&signature=`,
      ),
    );
    const expires = Date.parse(data[0].content_expires_at) - Date.now();
    expect(expires).toBeGreaterThan(5 * 60_000);
    expect(expires).toBeLessThanOrEqual(10 * 60_000);
    // The route is the operator's (or a console session's), never a key's.
    const withKey = await outside.get(`/internal/v1/results/${resultId}/attachments`, {
      headers: pipeline,
    });
    expect(withKey.status()).toBe(401);
    const unknown = await outside.get(
      '/internal/v1/results/9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b/attachments',
      { headers: { Authorization: 'Bearer console-operator-token-0123456789' } },
    );
    expect(unknown.status()).toBe(404);
  }, 60_000);

  it('shows each attachment beside the failure: image, video, the log’s first 256 KB, downloads', async () => {
    await page().goto(`/console/results/${resultId}`);
    await signIn(page());
    const section = page().getByRole('region', { name: 'Attachments' });
    await item('failure.png').waitFor();
    expect(await section.locator('li .attachment-head').allTextContents()).toEqual([
      expect.stringMatching(/^failure\.pngimage\/png · \d+(\.\d)? KB$/),
      expect.stringMatching(/^video\.webmvideo\/webm · \d+(\.\d)? KB$/),
      expect.stringMatching(/^trace\.zipapplication\/zip · \d+(\.\d)? KB$/),
      expect.stringMatching(/^console\.logtext\/plain · 3\d\d KB$/),
      'network.jsonapplication/json · 37 B',
      expect.stringMatching(/^report\.htmltext\/html · \d+ B$/),
      expect.stringMatching(/^badge\.svgimage\/svg\+xml · \d+ B$/),
      expect.stringMatching(/^page\.txttext\/plain · \d+ B$/),
    ]);

    // The screenshot in place, loaded through its signed link.
    const image = item('failure.png').getByRole('img', { name: 'failure.png' });
    await until(() => image.evaluate((img: { naturalWidth: number }) => img.naturalWidth > 0));
    expect(await image.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBe(640);

    // The recording plays.
    const video = item('video.webm').locator('video');
    expect(await video.getAttribute('controls')).not.toBeNull();
    await until(() => video.evaluate((v: { readyState: number }) => v.readyState >= 1));
    await video.evaluate((video: { muted: boolean; play(): Promise<void> }) => {
      video.muted = true;
      return video.play();
    });
    await until(() => video.evaluate((v: { currentTime: number }) => v.currentTime > 0));

    // The log's first 256 KB, no more, and where to get the rest.
    const text = item('console.log').getByLabel('Text of console.log');
    expect(await textWhen(text, '00001 [checkout] step 1')).toMatch(/^00001 \[checkout\] step 1:/);
    const shown = (await text.textContent()) ?? '';
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(TEXT_SHOWN);
    expect(Buffer.byteLength(shown)).toBeGreaterThan(TEXT_SHOWN - 4);
    expect(log.toString().startsWith(shown)).toBe(true);
    expect(shown).not.toContain('THE LAST LINE');
    expect(await item('console.log').locator('[data-field="text-cut"]').textContent()).toMatch(
      /^The first 256 KB of 3\d\d KB: download it for the rest\.$/,
    );
    expect(
      await textWhen(item('network.json').getByLabel('Text of network.json'), 'declined'),
    ).toBe('{"status": 402, "reason": "declined"}');

    // An HTML page sent as text is shown as its text.
    expect(await textWhen(item('page.txt').getByLabel('Text of page.txt'), '<script>')).toBe(
      html(stack.base).toString(),
    );

    // Every attachment is a download; the HTML and the SVG are only that.
    for (const name of ['failure.png', 'console.log', 'report.html', 'badge.svg', 'trace.zip']) {
      const link = item(name).getByRole('link', { name: `Download ${name}` });
      expect(await link.getAttribute('download')).toBe(name);
      expect(await link.getAttribute('href')).toMatch(/\/api\/v1\/attachments\/.+\/download\?/);
    }
    expect(await item('report.html').locator('img, iframe, object, embed, pre').count()).toBe(0);
    expect(await item('badge.svg').locator('img, iframe, object, embed, pre').count()).toBe(0);

    for (const width of WIDTHS) {
      await page().setViewportSize({ width, height: 800 });
      expect(await overflow()).toBeLessThanOrEqual(0);
      await expectAccessible(page());
      await screenshot(page(), `result-attachments-${width}`);
    }
    await page().setViewportSize({ width: 1200, height: 760 });
  }, 90_000);

  it('shows a screenshot larger in a dialog, closed with Escape', async () => {
    await item('failure.png').getByRole('button', { name: 'Enlarge failure.png' }).click();
    const dialog = page().getByRole('dialog', { name: 'failure.png' });
    await dialog.waitFor();
    const large = dialog.getByRole('img', { name: 'failure.png' });
    await until(() => large.evaluate((img: { naturalWidth: number }) => img.naturalWidth > 0));
    // At its own size (the border aside).
    expect(await large.evaluate((img: { clientWidth: number }) => img.clientWidth)).toBe(640);
    expect(
      await dialog.getByRole('link', { name: 'Open the image alone' }).getAttribute('href'),
    ).toMatch(/\/download\?/);
    await expectAccessible(page());
    for (const width of WIDTHS) {
      await page().setViewportSize({ width, height: 800 });
      await screenshot(page(), `result-attachment-enlarged-${width}`, { fullPage: false });
    }
    await page().setViewportSize({ width: 1200, height: 760 });
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }, 60_000);

  it('opens the trace in Playwright’s trace viewer, served on the console’s origin', async () => {
    await page().goto(`/console/results/${resultId}`);
    const open = item('trace.zip').getByRole('link', {
      name: 'Open in the trace viewer (trace.zip)',
    });
    const href = (await open.getAttribute('href')) ?? '';
    expect(href).toMatch(
      /^\/console\/trace\/index\.html\?trace=https%3A%2F%2Flocalhost%3A\d+%2Fapi%2Fv1%2Fattachments%2F/,
    );
    expect(await open.getAttribute('target')).toBe('_blank');

    const headers = (await outside.get('/console/trace/index.html')).headers();
    expect(headers['content-security-policy']).toContain("worker-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(headers['content-security-policy']).not.toContain('http');
    expect((await outside.get('/console/trace/sw.bundle.js')).headers()['content-type']).toMatch(
      /javascript/,
    );

    // Chrome registers no service worker from an origin whose certificate it does not trust
    // (the test service's is self-signed; a deployment's is trusted), whatever Playwright's
    // ignoreHTTPSErrors says: this browser is told to trust it. The viewer needs no session.
    const trusting = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--ignore-certificate-errors'],
    });
    try {
      const viewer = await trusting.newPage({ ignoreHTTPSErrors: true });
      const policyErrors: string[] = [];
      viewer.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) policyErrors.push(message.text());
      });
      await viewer.goto(`${stack.base}${href}`);
      // The viewer's list of the trace's actions (Playwright's own tests read it so).
      const actions = viewer.locator('.action-title');
      await actions.first().waitFor({ timeout: 30_000 });
      const titles = (await actions.allTextContents()).join('\n');
      expect(titles).toMatch(/Set content/);
      expect(titles).toMatch(/Fill/);
      expect(titles).toMatch(/Click/);
      // Its service worker serves the viewer's folder only, not the console's pages.
      const scopes = await viewer.evaluate<string[]>(
        '(async () => (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope))()',
      );
      expect(scopes).toEqual([`${stack.base}/console/trace/`]);
      for (const width of WIDTHS) {
        await viewer.setViewportSize({ width, height: 800 });
        await screenshot(viewer, `trace-viewer-${width}`, { fullPage: false });
      }
      expect(policyErrors).toEqual([]);

      // A link naming a trace on another origin loads nothing, even one that is there (the
      // same signed link through 127.0.0.1): the viewer reads its own origin only.
      const trace = new URL(href, stack.base).searchParams.get('trace') ?? '';
      const elsewhere = trace.replace('//localhost:', '//127.0.0.1:');
      expect((await outside.get(elsewhere)).status()).toBe(200);
      await viewer.goto(
        `${stack.base}/console/trace/index.html?trace=${encodeURIComponent(elsewhere)}`,
      );
      expect(await textWhen(viewer.locator('.processing-error'), /.+/, 15_000)).toMatch(
        /^Could not load trace from https:\/\/127\.0\.0\.1:/,
      );
      expect(await viewer.locator('.action-title').count()).toBe(0);
    } finally {
      await trusting.close();
    }
  }, 90_000);

  it('never runs an uploaded HTML page or SVG in the console’s origin', async () => {
    // The detector works: the same HTML, made a page of the console's origin, calls back.
    const probe = await browser.context.newPage();
    await probe.route(`${stack.base}/console/probe`, (route) =>
      route.fulfill({ contentType: 'text/html', body: html(stack.base) }),
    );
    await probe.goto('/console/probe');
    for (let waited = 0; callbacks.length === 0 && waited < 5_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(callbacks).toEqual([`${stack.base}${CALLBACK}?from=html`]);
    await probe.evaluate(`localStorage.removeItem('attachment-ran')`);
    await probe.close();
    callbacks.length = 0;

    await page().goto(`/console/results/${resultId}`);
    for (const name of ['report.html', 'badge.svg']) {
      const href =
        (await item(name)
          .getByRole('link', { name: `Download ${name}` })
          .getAttribute('href')) ?? '';
      // Served as a download in a sandbox, whatever the browser makes of it.
      const served = await outside.get(href);
      expect(served.status()).toBe(200);
      expect(served.headers()['content-disposition']).toMatch(/^attachment; filename=/);
      expect(served.headers()['content-security-policy']).toBe('sandbox');
      expect(served.headers()['x-content-type-options']).toBe('nosniff');
      // Opened in the browser (its link followed as a page): a download, never a page.
      const tab = await browser.context.newPage();
      const [download] = await Promise.all([
        tab.waitForEvent('download'),
        tab.goto(href).catch(() => null),
      ]);
      expect(download.suggestedFilename()).toBe(name);
      await tab.close();
      // Clicked in the console: a download too.
      const [clicked] = await Promise.all([
        page().waitForEvent('download'),
        item(name)
          .getByRole('link', { name: `Download ${name}` })
          .click(),
      ]);
      expect(clicked.suggestedFilename()).toBe(name);
    }
    // The same HTML sent as text/plain opens as text (its type, `nosniff`), not as a page.
    const asText =
      (await item('page.txt')
        .getByRole('link', { name: 'Download page.txt' })
        .getAttribute('href')) ?? '';
    const tab = await browser.context.newPage();
    await tab.goto(asText);
    expect(await tab.evaluate('document.contentType')).toBe('text/plain');
    expect(await tab.locator('body').textContent()).toContain('<script>');
    expect((await outside.get(asText)).headers()['content-security-policy']).toBe('sandbox');
    await tab.close();
    // Give a script every chance to have called back.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(callbacks).toEqual([]);
    expect(await page().evaluate(`localStorage.getItem('attachment-ran')`)).toBeNull();
    expect(new URL(page().url()).pathname).toBe(`/console/results/${resultId}`);
  }, 60_000);
});
