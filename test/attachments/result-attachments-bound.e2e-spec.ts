import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  content,
  describeAttachments,
  runWithResults,
  toLink,
} from '../attachments/attachment-fixtures.js';
import { ATTACHMENTS_PER_RESULT } from '../../src/attachments/attachments.service.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

/**
 * Content already stored is attached again without an upload, so without a bound a key could
 * attach one upload to a result without end (100 a call, any number of calls), and every list
 * of the result's attachments would grow with it (`GET /internal/v1/results/{id}/attachments`
 * answers each with a signed link). A result holds at most `ATTACHMENTS_PER_RESULT`: the batch
 * that would pass it is refused whole (CONTRACT §15: all or nothing, 400 naming the item).
 */
describe('a result’s attachments, bounded', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tm-review-attachments-'));
    t = await startApp({ ATTACHMENT_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the batch that would pass a result’s most attachments, and lists a bounded number', async () => {
    const tenant = await runWithResults(t, ['checkout.pays', 'checkout.refunds']);
    const log = content('the same log');
    const item = { automation_id: 'checkout.pays', ...log.item };
    const first = await describeAttachments(t, tenant.key, tenant.run.id, [item]).expect(201);
    const upload = first.body.data[0].upload;
    await toLink(t, 'put', upload.url).set(upload.headers).send(log.bytes).expect(200);
    const batch = (n: number, automation_id = 'checkout.pays') =>
      describeAttachments(
        t,
        tenant.key,
        tenant.run.id,
        Array.from({ length: n }, () => ({ ...item, automation_id })),
      );
    for (let call = 0; call < 9; call++) {
      const described = await batch(100).expect(201);
      // Already stored: no upload asked for.
      expect(described.body.data.every((a: { upload: unknown }) => a.upload === null)).toBe(true);
    }
    // 901 so far: 99 more make the most, one more is refused, with the rest of its batch.
    await batch(99).expect(201);
    const refused = await describeAttachments(t, tenant.key, tenant.run.id, [
      { ...item, automation_id: 'checkout.refunds' },
      item,
    ]).expect(400);
    expect(refused.body).toMatchObject({
      error: 'invalid_request',
      details: { field: 'attachments[1].automation_id' },
    });
    expect(refused.body.message).toContain(`holds ${ATTACHMENTS_PER_RESULT} attachments`);
    // All or nothing: the other result took none of that batch; it takes its own.
    await batch(2, 'checkout.refunds').expect(201);
    const results = await t.http
      .get(`/api/v1/testruns/${tenant.run.id}/results?status=failed&limit=100`)
      .set(withKey(tenant.key))
      .expect(200);
    const pays = (
      results.body.data as Array<{ id: string; test_case_id: string; attachments: unknown[] }>
    ).find((r) => r.attachments.length > 2);
    const listed = await t.http
      .get(`/internal/v1/results/${pays?.id}/attachments`)
      .set(OPERATOR)
      .expect(200);
    expect(listed.body.data).toHaveLength(ATTACHMENTS_PER_RESULT);
    const refunds = results.body.data.filter(
      (r: { attachments: unknown[] }) => r.attachments.length === 2,
    );
    expect(refunds).toHaveLength(1);
  }, 180_000);
});
