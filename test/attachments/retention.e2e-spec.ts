import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { AttachmentRetention } from '../../src/attachments/retention/attachment-retention.js';
import { AttachmentStore, contentKey } from '../../src/attachments/storage/attachment-store.js';
import { RetentionSweeper } from '../../src/retention/retention-sweeper.js';
import { startApp, type TestApp, withKey } from '../support/app.js';
import { content, describeAttachments, runWithResults, toLink } from './attachment-fixtures.js';

describe('attachment retention (worker role)', () => {
  let t: TestApp;
  let dir: string;
  let db: DataSource;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tm-retention-'));
    t = await startApp({ APP_ROLE: 'all', ATTACHMENT_DIR: dir, ATTACHMENT_RETENTION_DAYS: '30' });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const fileOf = (organizationId: string, item: { sha256: string; size: number }) =>
    join(dir, contentKey(organizationId, item));
  const age = (id: string, days: number) =>
    db.query(
      `UPDATE attachment SET created_at = now() - make_interval(days => $2),
         updated_at = now() - make_interval(days => $2) WHERE id = $1`,
      [id, days],
    );

  it('deletes expired attachments, and their content once no other attachment uses it', async () => {
    const { key, run, org } = await runWithResults(t);
    const shot = content('expiring screenshot', 'a.png', 'image/png');
    const [first] = (
      await describeAttachments(t, key, run.id, [{ automation_id: 'checkout.pays', ...shot.item }])
    ).body.data;
    await toLink(t, 'put', first.upload.url).send(shot.bytes).expect(200);
    const [second] = (
      await describeAttachments(t, key, run.id, [
        { automation_id: 'checkout.refunds', ...shot.item },
      ])
    ).body.data;
    expect(second.status).toBe('stored');

    await age(first.id, 31);
    await t.app.get(AttachmentRetention).sweep();
    expect((await t.http.get(`/api/v1/attachments/${first.id}`).set(withKey(key))).status).toBe(
      404,
    );
    // The second attachment still uses the bytes.
    expect(existsSync(fileOf(org.id, shot.item))).toBe(true);
    const served = await t.http.get(`/api/v1/attachments/${second.id}/content`).set(withKey(key));
    expect((await toLink(t, 'get', served.headers.location)).status).toBe(200);

    await age(second.id, 31);
    // Twice, as two replicas would: the second finds nothing left to do.
    const sweeps = await Promise.all([
      t.app.get(AttachmentRetention).sweep(),
      t.app.get(AttachmentRetention).sweep(),
    ]);
    expect(sweeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(existsSync(fileOf(org.id, shot.item))).toBe(false);
    expect((await t.http.get(`/api/v1/attachments/${second.id}`).set(withKey(key))).status).toBe(
      404,
    );
  });

  // The race between retention and dedup: retention deletes the last attachment of a content
  // and, in the same transaction, removes the bytes no attachment uses; a batch described
  // meanwhile must not take those bytes for stored (its attachment would point at nothing).
  it('never lets a new attachment share content that retention is removing', async () => {
    const { key, run, org } = await runWithResults(t);
    const shot = content('a screenshot retention is removing', 'gone.png', 'image/png');
    const [old] = (
      await describeAttachments(t, key, run.id, [{ automation_id: 'checkout.pays', ...shot.item }])
    ).body.data;
    await toLink(t, 'put', old.upload.url).send(shot.bytes).expect(200);
    // Retention's transaction, held open after its delete, as it is while it checks the content
    // and removes the bytes.
    const sweeper = db.createQueryRunner();
    await sweeper.connect();
    await sweeper.startTransaction();
    try {
      await sweeper.query('DELETE FROM attachment WHERE id = $1', [old.id]);
      let answered = false;
      const described = describeAttachments(t, key, run.id, [
        { automation_id: 'checkout.refunds', ...shot.item },
      ]).then((res) => {
        answered = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The batch waits for retention's decision instead of trusting a row being deleted.
      expect(answered).toBe(false);
      rmSync(fileOf(org.id, shot.item));
      await sweeper.commitTransaction();
      const res = await described;
      expect(res.status).toBe(201);
      // The content is gone, so it must be uploaded again.
      expect(res.body.data[0]).toMatchObject({ status: 'pending' });
      expect(res.body.data[0].upload).toBeTruthy();
    } finally {
      if (sweeper.isTransactionActive) await sweeper.rollbackTransaction();
      await sweeper.release();
    }
  });

  it('removes what an upload never completed left after a day, and keeps younger ones', async () => {
    const { key, run, org } = await runWithResults(t);
    const video = content('bytes that reached the store, never completed', 'v.webm', 'video/webm');
    const fresh = content('an upload still under way', 'w.webm', 'video/webm');
    const created = await describeAttachments(t, key, run.id, [
      { automation_id: 'checkout.pays', ...video.item },
      { automation_id: 'checkout.pays', ...fresh.item },
    ]);
    const [abandoned, young] = created.body.data;
    // As an object store's presigned PUT would leave it: the bytes there, the row pending.
    const store = t.app.get(AttachmentStore);
    for (const { bytes, item } of [video, fresh]) {
      await store.write(contentKey(org.id, item), Readable.from([bytes]), item);
    }
    await age(abandoned.id, 2);
    await t.app.get(AttachmentRetention).sweep();

    expect(existsSync(fileOf(org.id, video.item))).toBe(false);
    expect((await t.http.get(`/api/v1/attachments/${abandoned.id}`).set(withKey(key))).status).toBe(
      404,
    );
    expect(existsSync(fileOf(org.id, fresh.item))).toBe(true);
    const kept = await t.http.get(`/api/v1/attachments/${young.id}`).set(withKey(key));
    expect(kept.body.status).toBe('pending');
  });

  it('removes abandoned uploads once when two replicas sweep at once', async () => {
    const { key, run, org } = await runWithResults(t);
    const trace = content('a trace whose upload was never completed', 't.zip', 'application/zip');
    const [left] = (
      await describeAttachments(t, key, run.id, [{ automation_id: 'checkout.pays', ...trace.item }])
    ).body.data;
    await t.app
      .get(AttachmentStore)
      .write(contentKey(org.id, trace.item), Readable.from([trace.bytes]), trace.item);
    await age(left.id, 2);

    // As two worker replicas would, at the same moment: neither fails, the content goes once.
    const sweeps = await Promise.all([
      t.app.get(AttachmentRetention).sweep(),
      t.app.get(AttachmentRetention).sweep(),
    ]);
    expect(sweeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(existsSync(fileOf(org.id, trace.item))).toBe(false);
    expect((await t.http.get(`/api/v1/attachments/${left.id}`).set(withKey(key))).status).toBe(404);
  });

  it('removes the part files of uploads a killed process cut off after a day, on two replicas at once', async () => {
    // What an upload streaming when its process was killed leaves: its temporary file.
    const incoming = join(dir, '.incoming');
    mkdirSync(incoming, { recursive: true });
    const old = join(incoming, '0190a5b2-0000-7000-8000-0000000000aa.part');
    const young = join(incoming, '0190a5b2-0000-7000-8000-0000000000bb.part');
    writeFileSync(old, 'half of a video');
    writeFileSync(young, 'an upload under way');
    const dayAndMore = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(old, dayAndMore, dayAndMore);

    await Promise.all([
      t.app.get(AttachmentRetention).sweep(),
      t.app.get(AttachmentRetention).sweep(),
    ]);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
    rmSync(young);
  });

  it("goes with its run when the project's retention deletes the run: rows and unshared content", async () => {
    const { key, run, org } = await runWithResults(t);
    const shot = content('a run retention deletes', 'b.png', 'image/png');
    const [described] = (
      await describeAttachments(t, key, run.id, [{ automation_id: 'checkout.pays', ...shot.item }])
    ).body.data;
    await toLink(t, 'put', described.upload.url).send(shot.bytes).expect(200);
    expect(existsSync(fileOf(org.id, shot.item))).toBe(true);
    const [{ project_id: projectId }] = await db.query(
      'SELECT project_id FROM test_run WHERE id = $1',
      [run.id],
    );
    await db.query(`UPDATE test_run SET created_at = now() - interval '40 days' WHERE id = $1`, [
      run.id,
    ]);
    await db.query('UPDATE project SET retention_days = 30 WHERE id = $1', [projectId]);

    expect((await t.app.get(RetentionSweeper).sweep()).runs).toBe(1);
    const [{ left }] = await db.query(
      'SELECT count(*)::int AS left FROM attachment WHERE test_run_id = $1',
      [run.id],
    );
    expect(left).toBe(0);
    expect(existsSync(fileOf(org.id, shot.item))).toBe(false);
  });
});
