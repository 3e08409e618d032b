import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  asBytes,
  content,
  describeAttachments,
  runWithResults,
  toLink,
} from '../attachments/attachment-fixtures.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

/**
 * A result's attachments as the console's result page reads them (issue 30): its stored
 * attachments only, each with a short-lived signed link to its bytes, scoped by the result's
 * own organization.
 */
describe('GET /internal/v1/results/{id}/attachments', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tm-result-attachments-'));
    t = await startApp({ ATTACHMENT_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An organization's failed result with `stored` attachments sent and `pending` ones only described. */
  async function resultWith(stored: string[], pending: string[] = []) {
    const tenant = await runWithResults(t, ['checkout.pays']);
    const items = [...stored, ...pending].map((text, at) =>
      content(text, `log-${at}.txt`, 'text/plain'),
    );
    if (items.length === 0) return { ...tenant, resultId: await resultOf(tenant) };
    const described = await describeAttachments(
      t,
      tenant.key,
      tenant.run.id,
      items.map((item) => ({ automation_id: 'checkout.pays', ...item.item })),
    ).expect(201);
    for (const [at, attachment] of described.body.data.entries()) {
      if (at >= stored.length || attachment.upload === null) continue;
      await toLink(t, 'put', attachment.upload.url)
        .set(attachment.upload.headers)
        .send(items[at].bytes)
        .expect(200);
    }
    return { ...tenant, resultId: await resultOf(tenant) };
  }

  async function resultOf(tenant: { key: string; run: { id: string } }): Promise<string> {
    const results = await t.http
      .get(`/api/v1/testruns/${tenant.run.id}/results`)
      .set(withKey(tenant.key))
      .expect(200);
    return results.body.data[0].id;
  }

  const list = (id: string) => t.http.get(`/internal/v1/results/${id}/attachments`).set(OPERATOR);

  it('lists the result’s stored attachments in the order attached, each with a link to its bytes', async () => {
    const mine = await resultWith(['the first log', 'the second log'], ['never sent']);
    const res = await list(mine.resultId).expect(200);
    expect(res.body.data).toEqual([
      {
        id: expect.any(String),
        name: 'log-0.txt',
        content_type: 'text/plain',
        size: 13,
        content_url: expect.stringMatching(
          /^https:\/\/127\.0\.0\.1:\d+\/api\/v1\/attachments\/[0-9a-f-]{36}\/download\?expires=\d+&signature=/,
        ),
        content_expires_at: expect.any(String),
      },
      expect.objectContaining({ name: 'log-1.txt', size: 14 }),
    ]);
    const lifetime = Date.parse(res.body.data[0].content_expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(5 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000);

    const bytes = await toLink(t, 'get', res.body.data[1].content_url)
      .buffer(true)
      .parse(asBytes)
      .expect(200);
    expect(bytes.body.toString()).toBe('the second log');
    expect(bytes.headers['content-security-policy']).toBe('sandbox');
  });

  it('lists another organization’s result with its own attachments only', async () => {
    const mine = await resultWith(['mine']);
    const theirs = await resultWith(['theirs', 'theirs too']);
    const sizes = async (id: string) =>
      (await list(id).expect(200)).body.data.map((a: { size: number }) => a.size);
    expect(await sizes(mine.resultId)).toEqual([4]);
    expect(await sizes(theirs.resultId)).toEqual([6, 10]);
  });

  it('answers an empty list for a result without attachments', async () => {
    const bare = await resultWith([]);
    expect((await list(bare.resultId).expect(200)).body).toEqual({ data: [] });
  });

  it('answers 404 for an unknown or malformed id, and refuses an API key', async () => {
    await list(UNKNOWN_ID).expect(404);
    await list('not-a-uuid').expect(404);
    const mine = await resultWith(['mine']);
    const withApiKey = await t.http
      .get(`/internal/v1/results/${mine.resultId}/attachments`)
      .set(withKey(mine.key));
    expect(withApiKey.status).toBe(401);
  });
});
