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
import { startApp, withKey, type TestApp } from '../support/app.js';

/** An attachment's download names its file in a valid RFC 8187 ext-value, whatever its name. */
describe('attachment download filename', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tm-review-filename-'));
    t = await startApp({ ATTACHMENT_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('percent-encodes what an ext-value may not hold', async () => {
    const { key, run } = await runWithResults(t);
    const log = content('a log', `Bob's log (1)*.txt`);
    const created = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...log.item },
    ]).expect(201);
    const attachment = created.body.data[0];
    await toLink(t, 'put', attachment.upload.url).send(log.bytes).expect(200);
    const redirect = await t.http
      .get(`/api/v1/attachments/${attachment.id}/content`)
      .set(withKey(key));
    const served = await toLink(t, 'get', redirect.headers.location as string)
      .buffer(true)
      .parse(asBytes)
      .expect(200);
    const disposition = served.headers['content-disposition'] as string;
    const [, value] = /filename\*=UTF-8''(.*)$/.exec(disposition) ?? [];
    expect(value).toMatch(/^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+$/);
    expect(decodeURIComponent(value)).toBe(`Bob's log (1)*.txt`);
  });
});
