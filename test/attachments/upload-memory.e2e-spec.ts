import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BodyBudget } from '../../src/common/http/body-budget.js';
import { HTTPS, listenOnLoopback, startApp, type TestApp } from '../support/app.js';
import { describeAttachments, runWithResults } from './attachment-fixtures.js';

const MIB = 1024 * 1024;
/** The bytes of every upload here: one 64 KiB block, sent again and again (the client keeps no copies). */
const BLOCK = Buffer.alloc(64 * 1024, 'evidence');

/** How an attachment of `blocks` × BLOCK describes itself. */
function itemOf(blocks: number, name: string) {
  const hash = createHash('sha256');
  for (let i = 0; i < blocks; i++) hash.update(BLOCK);
  return {
    automation_id: 'checkout.pays',
    name,
    content_type: 'video/webm',
    size: blocks * BLOCK.length,
    sha256: hash.digest('hex'),
  };
}

/**
 * PUTs `blocks` × BLOCK to a link over a real socket, declaring the whole length; `sent` blocks
 * only when given (the client then holds the request open until `destroy` is called).
 */
function put(port: number, url: string, blocks: number, sent = blocks) {
  const { pathname, search } = new URL(url);
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'PUT',
    path: `${pathname}${search}`,
    headers: { ...HTTPS, 'Content-Length': blocks * BLOCK.length },
  });
  const answer = new Promise<{ status: number; headers: Record<string, unknown> }>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', () => resolve({ status: 0, headers: {} }));
  });
  let written = 0;
  const pump = () => {
    while (written < sent) {
      written++;
      if (!req.write(BLOCK)) return void req.once('drain', pump);
    }
    if (sent === blocks) req.end();
  };
  pump();
  return { answer, destroy: () => req.destroy() };
}

describe('uploads through the service cost it little memory, and are bounded like bodies', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tm-upload-memory-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('one large upload', () => {
    let t: TestApp;
    let port: number;
    beforeAll(async () => {
      t = await startApp({ ATTACHMENT_DIR: dir });
      port = await listenOnLoopback(t);
    });
    afterAll(() => t.close());

    it('frees the body as it goes: 96 MiB leave no pile of buffers for the garbage collector', async () => {
      const { key, run } = await runWithResults(t);
      const item = itemOf(1536, 'video.webm');
      const [attachment] = (await describeAttachments(t, key, run.id, [item])).body.data;

      const before = process.memoryUsage().arrayBuffers;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      }, 5);
      const { answer } = put(port, attachment.upload.url, 1536);
      const { status } = await answer;
      clearInterval(sampler);

      expect(status).toBe(200);
      // Each body chunk (Node's HTTP parser copies it) was freed once on disk; left to the
      // garbage collector, tens of MiB of them piled up first (64 MB at most, V8's threshold).
      expect((peak - before) / MIB).toBeLessThan(12);
    });
  });

  describe('many at once', () => {
    let t: TestApp;
    let port: number;
    beforeAll(async () => {
      // A budget of two uploads (4 MiB each, `FilesystemStore.writeMemory`); a short wait.
      t = await startApp({
        ATTACHMENT_DIR: dir,
        BODY_MEMORY_BUDGET_MB: '8',
        BODY_BUDGET_WAIT_MS: '500',
      });
      port = await listenOnLoopback(t);
    });
    afterAll(() => t.close());

    it('lets as many stream as the body budget holds; the next waits its turn, then answers 503', async () => {
      const { key, run } = await runWithResults(t);
      const items = [1, 2, 3, 4].map((n) => itemOf(16 + n, `video-${n}.webm`));
      const attachments: { upload: { url: string } }[] = (
        await describeAttachments(t, key, run.id, items)
      ).body.data;
      const budget = t.app.get(BodyBudget);

      const slow = attachments.slice(0, 2).map((a, i) => put(port, a.upload.url, 17 + i, 4));
      for (let i = 0; i < 200 && budget.inUse < 8 * MIB; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(budget.inUse).toBe(8 * MIB);

      const third = await put(port, attachments[2].upload.url, 19).answer;
      expect(third.status).toBe(503);
      expect(third.headers['retry-after']).toBeDefined();

      for (const upload of slow) upload.destroy();
      await Promise.all(slow.map((upload) => upload.answer));
      for (let i = 0; i < 200 && budget.inUse > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const fourth = await put(port, attachments[3].upload.url, 20).answer;
      expect(fourth.status).toBe(200);
    });
  });
});
