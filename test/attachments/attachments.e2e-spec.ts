import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttachmentLinks } from '../../src/attachments/attachment-links.js';
import { createApiKey, createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { request } from 'node:http';
import { HTTPS, listenOnLoopback, startApp, type TestApp, withKey } from '../support/app.js';
import {
  asBytes,
  content,
  describeAttachments,
  runWithResults,
  toLink,
} from './attachment-fixtures.js';

const PNG = content(
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  'shot.png',
  'image/png',
);
const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

describe('attachments on the filesystem store (CONTRACT §15)', () => {
  let t: TestApp;
  let dir: string;
  let port: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tm-attachments-'));
    t = await startApp({ ATTACHMENT_DIR: dir, ATTACHMENT_MAX_BYTES: String(1024 * 1024) });
    port = await listenOnLoopback(t);
  });

  /**
   * PUTs `chunks` to a link over a real socket: chunked, or with a declared `length` that the
   * client then leaves short of (it closes the connection: no answer).
   */
  function rawPut(url: string, chunks: Buffer[], length?: number) {
    const { pathname, search } = new URL(url);
    return new Promise<{ status: number; body: string }>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: `${pathname}${search}`,
        headers: { ...HTTPS, ...(length === undefined ? {} : { 'Content-Length': length }) },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', () => resolve({ status: 0, body: '' }));
      for (const chunk of chunks) req.write(chunk);
      if (length === undefined) req.end();
      else
        setTimeout(() => {
          req.destroy();
          // The service notices the socket close and removes the partial file.
          setTimeout(() => resolve({ status: 0, body: '' }), 300);
        }, 200);
    });
  }
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('describes, uploads through the signed link, and serves the bytes through a 302', async () => {
    const { key, run } = await runWithResults(t);
    const log = content('step 3 failed\n');
    const created = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...log.item },
    ]);
    expect(created.status).toBe(201);
    const [attachment] = created.body.data;
    expect(attachment).toMatchObject({
      test_run_id: run.id,
      configuration: null,
      status: 'pending',
      size: log.bytes.length,
      upload: { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' } },
    });
    expect(Date.parse(attachment.upload.expires_at) - Date.now()).toBeGreaterThan(15 * 60_000);

    const uploaded = await toLink(t, 'put', attachment.upload.url)
      .set(attachment.upload.headers)
      .send(log.bytes);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.status).toBe('stored');

    const completed = await t.http
      .post(`/api/v1/testruns/${run.id}/attachments/complete`)
      .set(withKey(key))
      .send({ ids: [attachment.id] });
    expect(completed.status).toBe(200);
    expect(completed.body.data).toMatchObject([
      { id: attachment.id, status: 'stored', upload: null },
    ]);

    const read = await t.http.get(`/api/v1/attachments/${attachment.id}`).set(withKey(key));
    expect(read.body).toMatchObject({ id: attachment.id, status: 'stored', upload: null });

    const redirect = await t.http
      .get(`/api/v1/attachments/${attachment.id}/content`)
      .set(withKey(key));
    expect(redirect.status).toBe(302);
    const served = await toLink(t, 'get', redirect.headers.location);
    expect(served.status).toBe(200);
    expect(served.text).toBe('step 3 failed\n');
    expect(served.headers).toMatchObject({
      'content-type': 'text/plain',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
    });
    expect(served.headers['content-disposition']).toMatch(/^inline;/);

    // The result lists its stored attachments; a pending one is not listed yet.
    const pending = content('not sent yet\n');
    await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...pending.item },
    ]);
    const results = await t.http.get(`/api/v1/testruns/${run.id}/results`).set(withKey(key));
    const byCase = new Map(
      results.body.data.map((r: { test_case_id: string; attachments: unknown[] }) => [
        r.test_case_id,
        r.attachments,
      ]),
    );
    expect(byCase.get(attachment.test_case_id)).toEqual([
      { id: attachment.id, name: 'log.txt', content_type: 'text/plain', size: log.bytes.length },
    ]);
    expect([...byCase.values()]).toContainEqual([]);
  });

  it('keeps content once per organization: the same bytes again need no upload', async () => {
    const { key, run, org } = await runWithResults(t);
    const shot = content(`screenshot of ${org.id}`, 'a.png', 'image/png');
    const [first] = (
      await describeAttachments(t, key, run.id, [{ automation_id: 'checkout.pays', ...shot.item }])
    ).body.data;
    await toLink(t, 'put', first.upload.url).set(first.upload.headers).send(shot.bytes).expect(200);

    const again = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.refunds', ...shot.item, name: 'b.png' },
    ]);
    expect(again.body.data).toMatchObject([{ status: 'stored', upload: null, name: 'b.png' }]);

    // Another organization's identical bytes are its own to send.
    const other = await runWithResults(t);
    const theirs = await describeAttachments(t, other.key, other.run.id, [
      { automation_id: 'checkout.pays', ...shot.item },
    ]);
    expect(theirs.body.data).toMatchObject([{ status: 'pending' }]);
    expect(theirs.body.data[0].upload).not.toBeNull();
  });

  it('refuses bytes of another size or SHA-256, and leaves nothing visible', async () => {
    const { key, run } = await runWithResults(t);
    const log = content('the real log\n');
    const [attachment] = (
      await describeAttachments(t, key, run.id, [{ automation_id: 'checkout.pays', ...log.item }])
    ).body.data;
    const put = () => toLink(t, 'put', attachment.upload.url).set(attachment.upload.headers);

    const longer = await put().send(Buffer.from('the real log\n and more'));
    expect(longer.status).toBe(400);
    expect(longer.body).toMatchObject({ error: 'invalid_request', details: { field: 'size' } });

    const forged = await put().send(Buffer.from('the fake log\n'));
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ error: 'invalid_request', details: { field: 'sha256' } });

    // Chunked, so the length is only found wrong while streaming.
    const shorter = await rawPut(attachment.upload.url, [Buffer.from('the real')]);
    expect(shorter.status).toBe(400);
    expect(JSON.parse(shorter.body).details.field).toBe('size');
    // A client that leaves halfway.
    await rawPut(attachment.upload.url, [Buffer.from('the real')], log.bytes.length);

    const read = await t.http.get(`/api/v1/attachments/${attachment.id}`).set(withKey(key));
    expect(read.body.status).toBe('pending');
    const contentRead = await t.http
      .get(`/api/v1/attachments/${attachment.id}/content`)
      .set(withKey(key));
    expect(contentRead.status).toBe(404);
    expect(
      filesUnder(dir).filter((file) => file.includes(log.item.sha256) || file.endsWith('.part')),
    ).toEqual([]);
  });

  it('refuses expired and tampered links, and stores nothing through them', async () => {
    const { key, run } = await runWithResults(t);
    const log = content('tampering\n');
    const [attachment] = (
      await describeAttachments(t, key, run.id, [{ automation_id: 'checkout.pays', ...log.item }])
    ).body.data;
    const links = t.app.get(AttachmentLinks);
    const expired = await links.make(attachment.id, 'upload', -1, 'https://localhost');
    const url = new URL(attachment.upload.url);
    const signature = url.searchParams.get('signature') as string;
    const tampered = new URL(url);
    tampered.searchParams.set('signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const asDownload = new URL(url);
    asDownload.pathname = asDownload.pathname.replace(/upload$/, 'download');

    for (const link of [expired.url, tampered.href, longer.href]) {
      const res = await toLink(t, 'put', link).set(attachment.upload.headers).send(log.bytes);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
    }
    const res = await toLink(t, 'get', asDownload.href);
    expect(res.status).toBe(401);
    const unsigned = await toLink(t, 'put', `${url.origin}${url.pathname}`).send(log.bytes);
    expect(unsigned.status).toBe(401);

    const read = await t.http.get(`/api/v1/attachments/${attachment.id}`).set(withKey(key));
    expect(read.body.status).toBe('pending');
    expect(filesUnder(dir).filter((file) => file.includes(log.item.sha256))).toEqual([]);
  });

  it('serves any type but images, videos and plain text as a download, sandboxed', async () => {
    const { key, run } = await runWithResults(t);
    const html = content('<script>alert(1)</script>', 'page.html', 'text/html');
    const created = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...html.item },
      { automation_id: 'checkout.pays', ...PNG.item },
    ]);
    for (const [at, { bytes }] of [html, PNG].entries()) {
      const attachment = created.body.data[at];
      if (attachment.upload) await toLink(t, 'put', attachment.upload.url).send(bytes).expect(200);
    }
    const served = async (id: string) => {
      const redirect = await t.http.get(`/api/v1/attachments/${id}/content`).set(withKey(key));
      return toLink(t, 'get', redirect.headers.location).buffer(true).parse(asBytes);
    };
    const page = await served(created.body.data[0].id);
    expect(page.headers['content-type']).toBe('text/html');
    expect(page.headers['content-disposition']).toBe(
      'attachment; filename="page.html"; filename*=UTF-8\'\'page.html',
    );
    expect(page.headers['content-security-policy']).toBe('sandbox');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const image = await served(created.body.data[1].id);
    expect(image.headers['content-disposition']).toMatch(/^inline;/);
    expect(Buffer.compare(image.body as Buffer, PNG.bytes)).toBe(0);
  });

  it('refuses a batch naming a slot without a result, an oversized item, or a completed run', async () => {
    const { key, run } = await runWithResults(t);
    const log = content('x');
    const unknown = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...log.item },
      { automation_id: 'checkout.pays', configuration: 'firefox', ...log.item },
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.field).toBe('attachments[1].automation_id');
    const byCase = await describeAttachments(t, key, run.id, [
      { test_case_id: UNKNOWN_ID, ...log.item },
    ]);
    expect(byCase.body.details.field).toBe('attachments[0].test_case_id');

    const big = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...log.item, size: 1024 * 1024 + 1 },
    ]);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: 'payload_too_large', details: { limit: 1024 * 1024 } });

    const tooMany = await describeAttachments(
      t,
      key,
      run.id,
      Array.from({ length: 101 }, () => ({ automation_id: 'checkout.pays', ...log.item })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details.field).toBe('attachments');

    const badHash = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...log.item, sha256: 'A'.repeat(64) },
    ]);
    expect(badHash.body.details.field).toBe('attachments[0].sha256');

    // Nothing of the refused batches was kept.
    const none = await t.http
      .post(`/api/v1/testruns/${run.id}/attachments/complete`)
      .set(withKey(key))
      .send({ ids: [UNKNOWN_ID] });
    expect(none.status).toBe(400);

    await t.http
      .patch(`/api/v1/testruns/${run.id}`)
      .set(withKey(key))
      .send({ status: 'completed' })
      .expect(200);
    const late = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...log.item },
    ]);
    expect(late.status).toBe(409);
  });

  it('keeps each organization to its own runs and attachments', async () => {
    const mine = await runWithResults(t);
    const log = content('mine\n');
    const [attachment] = (
      await describeAttachments(t, mine.key, mine.run.id, [
        { automation_id: 'checkout.pays', ...log.item },
      ])
    ).body.data;
    await toLink(t, 'put', attachment.upload.url).send(log.bytes).expect(200);

    const other = await createTenant(t, RUN_SCOPES);
    const as = withKey(other.key);
    expect((await t.http.get(`/api/v1/attachments/${attachment.id}`).set(as)).status).toBe(404);
    expect((await t.http.get(`/api/v1/attachments/${attachment.id}/content`).set(as)).status).toBe(
      404,
    );
    expect(
      (
        await describeAttachments(t, other.key, mine.run.id, [
          { automation_id: 'checkout.pays', ...log.item },
        ])
      ).status,
    ).toBe(404);
    const complete = await t.http
      .post(`/api/v1/testruns/${mine.run.id}/attachments/complete`)
      .set(as)
      .send({ ids: [attachment.id] });
    expect(complete.status).toBe(404);
  });

  it('needs results:submit to add and results:read to read', async () => {
    const { key, run, org } = await runWithResults(t);
    const log = content('scoped\n');
    const [attachment] = (
      await describeAttachments(t, key, run.id, [{ automation_id: 'checkout.pays', ...log.item }])
    ).body.data;
    const reader = await createApiKey(t, org.id, ['results:read']);
    const submitter = await createApiKey(t, org.id, ['results:submit']);
    const refused = await describeAttachments(t, reader.key, run.id, [
      { automation_id: 'checkout.pays', ...log.item },
    ]);
    expect(refused.status).toBe(403);
    expect(refused.body.details.required_scopes).toEqual(['results:submit']);
    const complete = await t.http
      .post(`/api/v1/testruns/${run.id}/attachments/complete`)
      .set(withKey(reader.key))
      .send({ ids: [attachment.id] });
    expect(complete.status).toBe(403);
    for (const path of [
      `/api/v1/attachments/${attachment.id}`,
      `/api/v1/attachments/${attachment.id}/content`,
    ]) {
      const res = await t.http.get(path).set(withKey(submitter.key));
      expect(res.status).toBe(403);
      expect(res.body.details.required_scopes).toEqual(['results:read']);
    }
  });

  it('counts an upload against no limit', async () => {
    const { key, run } = await runWithResults(t);
    const log = content('uncounted\n');
    const [attachment] = (
      await describeAttachments(t, key, run.id, [{ automation_id: 'checkout.pays', ...log.item }])
    ).body.data;
    const before = await t.http.get(`/api/v1/attachments/${attachment.id}`).set(withKey(key));
    const upload = await toLink(t, 'put', attachment.upload.url).send(log.bytes);
    expect(upload.status).toBe(200);
    expect(upload.headers['x-ratelimit-remaining']).toBeUndefined();
    const after = await t.http.get(`/api/v1/attachments/${attachment.id}`).set(withKey(key));
    expect(
      Number(before.headers['x-ratelimit-remaining']) -
        Number(after.headers['x-ratelimit-remaining']),
    ).toBe(1);
  });
});
