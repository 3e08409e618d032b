import { startApp, type TestApp, withKey } from '../support/app.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';
import {
  asBytes,
  content,
  describeAttachments,
  runWithResults,
  toLink,
} from './attachment-fixtures.js';

describe('attachments on an S3-compatible store (CONTRACT §15)', () => {
  let t: TestApp;
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await startApp(s3.settings);
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it('hands out presigned PUTs that sign the length and SHA-256, and completes once stored', async () => {
    const { key, run } = await runWithResults(t);
    const trace = content('PK trace bytes', 'trace.zip', 'application/zip');
    const created = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', configuration: 'chromium', ...trace.item },
    ]);
    // No result in the slot 'chromium': refused.
    expect(created.status).toBe(400);

    const made = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...trace.item },
    ]);
    expect(made.status).toBe(201);
    const [attachment] = made.body.data;
    const { upload } = attachment;
    const url = new URL(upload.url);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'x-amz-checksum-sha256']),
    );
    expect(upload.headers).toEqual({
      'Content-Length': String(trace.bytes.length),
      'x-amz-checksum-sha256': Buffer.from(trace.item.sha256, 'hex').toString('base64'),
    });

    // Before the bytes arrive, complete leaves it pending, with a new link.
    const early = await t.http
      .post(`/api/v1/testruns/${run.id}/attachments/complete`)
      .set(withKey(key))
      .send({ ids: [attachment.id] });
    expect(early.body.data).toMatchObject([{ status: 'pending' }]);
    expect(early.body.data[0].upload.url).toMatch(s3.endpoint);

    const put = await fetch(upload.url, {
      method: 'PUT',
      headers: upload.headers,
      body: trace.bytes,
    });
    expect(put.status).toBe(200);
    const completed = await t.http
      .post(`/api/v1/testruns/${run.id}/attachments/complete`)
      .set(withKey(key))
      .send({ ids: [attachment.id] });
    expect(completed.status).toBe(200);
    expect(completed.body.data).toMatchObject([
      { id: attachment.id, status: 'stored', upload: null },
    ]);

    // The same bytes again: stored at once.
    const again = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.refunds', ...trace.item },
    ]);
    expect(again.body.data).toMatchObject([{ status: 'stored', upload: null }]);

    // Served from the bucket through the service's signed link, as a download.
    const redirect = await t.http
      .get(`/api/v1/attachments/${attachment.id}/content`)
      .set(withKey(key));
    expect(redirect.status).toBe(302);
    const served = await toLink(t, 'get', redirect.headers.location).buffer(true).parse(asBytes);
    expect(served.status).toBe(200);
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers['content-security-policy']).toBe('sandbox');
    expect((served.body as Buffer).toString()).toBe('PK trace bytes');
  });
});
