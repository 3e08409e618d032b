import { ReporterError } from './errors.js';
import type { Report } from './reports.js';
import { IncompleteUploadError, uploadAll, type Upload, type Uploaded } from './upload.js';

const report = (file: string): Report & { kind: 'junit' } => ({
  kind: 'junit',
  file,
  bytes: Buffer.from(''),
  hash: file,
  cases: 1,
  contentType: 'application/xml',
});
/** Reports sent in one call (a packed body). */
const upload = (...reports: ReturnType<typeof report>[]): Upload => ({
  kind: 'junit',
  reports,
  bodies: [],
});
const stored = (r: Report): Uploaded => ({
  file: r.file,
  kind: r.kind,
  accepted: 1,
  created_test_cases: 1,
  replayed: 0,
});

describe('sending every report of a submit', () => {
  const reports = ['a.xml', 'b.xml', 'c.xml', 'd.xml', 'e.xml'].map((file) => upload(report(file)));

  it('starts no report after one failed, awaits those on their way, and names both lists', async () => {
    const started: string[] = [];
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const send = async ({ reports: [r] }: Upload) => {
      started.push(r.file);
      // a.xml is still on its way when c.xml fails, and is stored after.
      if (r.file === 'a.xml') await wait(30);
      if (r.file === 'c.xml') {
        await wait(5);
        throw new ReporterError('the network lost it');
      }
      return [stored(r)];
    };
    const failure = await uploadAll(reports, 2, send, '"e2e" (run-1)').catch((e) => e);
    expect(failure).toBeInstanceOf(IncompleteUploadError);
    expect(started).toEqual(['a.xml', 'b.xml', 'c.xml']);
    expect((failure as IncompleteUploadError).stored.map((u) => u.file)).toEqual([
      'a.xml',
      'b.xml',
    ]);
    expect((failure as IncompleteUploadError).notStored).toEqual([
      { file: 'c.xml', error: 'the network lost it' },
      { file: 'd.xml', error: 'not sent (an earlier report failed)' },
      { file: 'e.xml', error: 'not sent (an earlier report failed)' },
    ]);
    expect((failure as Error).message).toBe(
      '3 of 5 reports were not stored in run "e2e" (run-1): run the same submit again (the 2 stored already are answered with their replay, not stored twice).',
    );
  });

  it('returns what each report stored, in their order, when all arrive', async () => {
    const uploaded = await uploadAll(reports, 4, async (u) => u.reports.map(stored), 'run');
    expect(uploaded.map((u) => u.file)).toEqual(reports.map((u) => u.reports[0].file));
  });

  it('names every report of a packed body that failed as not stored, and those of the others as stored', async () => {
    const packed = [
      upload(report('a.xml'), report('b.xml')),
      upload(report('c.xml'), report('d.xml')),
    ];
    const send = async (u: Upload) => {
      if (u.reports[0].file === 'c.xml') throw new ReporterError('refused');
      return u.reports.map(stored);
    };
    const failure = (await uploadAll(packed, 1, send, 'run').catch(
      (e) => e,
    )) as IncompleteUploadError;
    expect(failure.stored.map((u) => u.file)).toEqual(['a.xml', 'b.xml']);
    expect(failure.notStored).toEqual([
      { file: 'c.xml', error: 'refused' },
      { file: 'd.xml', error: 'refused' },
    ]);
    expect(failure.message).toMatch(/^2 of 4 reports were not stored/);
  });
});
