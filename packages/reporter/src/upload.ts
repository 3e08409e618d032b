import { dataOf, replayed, type ServiceClient } from './client.js';
import type { DocumentFormat } from './formats.js';
import { ReporterError, asEnvelope } from './errors.js';
import { idempotencyKey } from './keys.js';
import { packJunit, type JunitBody, type JunitReport } from './pack.js';
import { batchesOf, type Report } from './reports.js';
import type { RunRef } from './run.js';

export interface Uploaded {
  file: string;
  kind: Report['kind'];
  accepted: number;
  created_test_cases: number;
  /** Calls the service answered with a replay: sent before (another attempt, job or shard). */
  replayed: number;
}

/** Where and how a job's reports go: the same for each of its reports. */
export interface UploadTarget {
  run: RunRef;
  /** Told the id of the run each call's answer names (a run by name has none before). */
  ranInto?: (runId: string) => void;
  /** The configuration of every result whose report names none (CONTRACT §13). */
  configuration?: string;
  /**
   * Set in a job run again (a re-run the CI variables tell, or `--reopen`): its reports are a
   * new execution, so their calls do not replay what the first attempt's identical reports were
   * answered (a 409 from a completed run is replayed for 24 h as well as a 201).
   */
  rerun?: string;
  /** Taken off the front of the file paths in a report (CONTRACT §14: `path_root`). */
  pathRoot?: string;
}

/** A completed run takes no results (409 conflict): say how a job run again gets it back. */
function refuseClosedRun(result: { error?: unknown; response: Response }) {
  if (result.response.status !== 409 || asEnvelope(result.error).error !== 'conflict') return;
  throw new ReporterError(
    `the run is completed and takes no results (409 conflict): a job run again reopens it with --reopen (a re-run GitHub, Azure or Buildkite job does by itself)`,
  );
}

/** A report document of another format than JUnit (CONTRACT §14): sent as it is, alone. */
type DocumentReport = Extract<Report, { bytes: Buffer }>;
/** Result items: a JSON results file's, an Allure folder's. */
type ItemsReport = Extract<Report, { items: unknown }>;

/**
 * What is stored or not as one: JUnit reports packed into bodies (pack.ts: several reports in
 * one, or one large report in several), one document of another format, or one items report's
 * calls.
 */
export type Upload =
  | { kind: 'junit'; reports: JunitReport[]; bodies: JunitBody[] }
  | { kind: 'document'; reports: [DocumentReport]; report: DocumentReport }
  | { kind: 'items'; reports: [ItemsReport]; report: ItemsReport };

const isJunit = (report: Report): report is JunitReport => report.kind === 'junit';

/** The job's reports as uploads, in the order of their files. */
export function uploadsOf(reports: Report[]): Upload[] {
  const uploads: Upload[] = [];
  for (const body of packJunit(reports.filter(isJunit))) {
    const last = uploads.at(-1);
    // The parts of one large report are stored or not together, like a JSON file's calls.
    if (body.part && body.part.index > 0 && last?.kind === 'junit') last.bodies.push(body);
    else uploads.push({ kind: 'junit', reports: body.reports, bodies: [body] });
  }
  for (const report of reports) {
    if (isJunit(report)) continue;
    if ('bytes' in report) uploads.push({ kind: 'document', reports: [report], report });
    else uploads.push({ kind: 'items', reports: [report], report });
  }
  const order = new Map(reports.map((r, i) => [r, i]));
  return uploads.sort((a, b) => (order.get(a.reports[0]) ?? 0) - (order.get(b.reports[0]) ?? 0));
}

/**
 * The `Idempotency-Key` of a call: derived from the run, what the call carries (its files'
 * content hashes, and which part or batch) and the configuration, so sending the same files
 * again, from a retry, a second submit or another shard, stores nothing twice.
 */
function keyOf(target: UploadTarget, kind: string, ...identity: string[]): string {
  const { run, configuration, rerun, pathRoot } = target;
  return idempotencyKey(
    kind,
    ...('runId' in run ? [run.runId] : [`build:${run.buildId}`, run.projectId, run.runName]),
    ...identity,
    ...(configuration === undefined ? [] : [`configuration:${configuration}`]),
    ...(rerun === undefined ? [] : [`rerun:${rerun}`]),
    ...(pathRoot ? [`path_root:${pathRoot}`] : []),
  );
}

/**
 * The run of a `POST /results/ingest` call: its id, or its project, name and build, joined
 * (`join_run`: the build's run of that name, which the first shard's ingest creates).
 */
function runParameters(run: RunRef) {
  if ('runId' in run) return { test_run_id: run.runId };
  return {
    project_id: run.projectId,
    run_name: run.runName,
    build_id: run.buildId,
    join_run: true,
    ...(run.releaseId && { release_id: run.releaseId }),
  };
}

/** `POST /results/ingest`'s query for a document of `format` into the target's run. */
function ingestQuery(target: UploadTarget, format: DocumentFormat) {
  const { run, configuration, pathRoot } = target;
  return {
    ...runParameters(run),
    format,
    ...(configuration && { configuration }),
    ...(pathRoot && { path_root: pathRoot }),
  };
}

const uploadedOf = (report: Report): Uploaded => ({
  file: report.file,
  kind: report.kind,
  accepted: 0,
  created_test_cases: 0,
  replayed: 0,
});

/** Says how much of an upload of several calls was stored when a later call failed. */
function storedInPart(error: unknown, index: number, calls: number, accepted: number): unknown {
  if (index === 0 || !(error instanceof ReporterError)) return error;
  return new ReporterError(
    `${error.message} (its first ${index} of ${calls} calls were stored: ${accepted} results)`,
  );
}

/**
 * Sends JUnit bodies to `POST /results/ingest`. A body of several reports is answered for all
 * of them: each file is told its own test cases as accepted, and the first the body's new cases.
 */
async function uploadJunit(
  client: ServiceClient,
  target: UploadTarget,
  upload: Extract<Upload, { kind: 'junit' }>,
): Promise<Uploaded[]> {
  const uploaded = upload.reports.map(uploadedOf);
  const files = upload.reports.map((r) => r.file).join(', ');
  for (const [index, body] of upload.bodies.entries()) {
    try {
      const result = await client.POST('/api/v1/results/ingest', {
        params: { query: ingestQuery(target, 'junit') },
        body: body.body as unknown as string,
        bodySerializer: (sent: unknown) => sent as string,
        headers: {
          'Content-Type': 'application/xml',
          'Idempotency-Key': keyOf(target, 'junit', ...body.identity),
        },
      });
      refuseClosedRun(result);
      const data = dataOf(`POST /api/v1/results/ingest (${files})`, result);
      target.ranInto?.(data.test_run_id);
      const again = replayed(result.response) ? 1 : 0;
      if (uploaded.length === 1) uploaded[0].accepted += data.accepted;
      else for (const [i, report] of upload.reports.entries()) uploaded[i].accepted = report.cases;
      uploaded[0].created_test_cases += data.created_test_cases;
      for (const u of uploaded) u.replayed += again;
    } catch (error) {
      throw storedInPart(error, index, upload.bodies.length, uploaded[0].accepted);
    }
  }
  return uploaded;
}

/** Sends a document of another format as it is to `POST /results/ingest`, its format named. */
async function uploadDocument(
  client: ServiceClient,
  target: UploadTarget,
  report: DocumentReport,
): Promise<Uploaded[]> {
  const uploaded = uploadedOf(report);
  const result = await client.POST('/api/v1/results/ingest', {
    params: { query: ingestQuery(target, report.kind) },
    body: report.bytes as unknown as string,
    bodySerializer: (sent: unknown) => sent as string,
    headers: {
      'Content-Type': report.contentType,
      'Idempotency-Key': keyOf(target, report.kind, report.hash),
    },
  });
  refuseClosedRun(result);
  const data = dataOf(`POST /api/v1/results/ingest (${report.file})`, result);
  target.ranInto?.(data.test_run_id);
  uploaded.accepted = data.accepted;
  uploaded.created_test_cases = data.created_test_cases;
  if (replayed(result.response)) uploaded.replayed++;
  return [uploaded];
}

/**
 * Sends result items (a JSON file's, an Allure folder's) in calls of at most 5,000: to
 * `POST /testruns/{id}/results` for a run by id, else as `POST /results/ingest`'s JSON command,
 * which names the run as a report's query does.
 */
async function uploadItems(
  client: ServiceClient,
  target: UploadTarget,
  report: ItemsReport,
): Promise<Uploaded[]> {
  const { run, configuration } = target;
  const uploaded = uploadedOf(report);
  const batches = batchesOf(report.items);
  for (const [index, batch] of batches.entries()) {
    const headers = {
      'Idempotency-Key': keyOf(target, 'results', report.hash, `${index}/${batches.length}`),
    };
    const body = { results: batch, ...(configuration && { configuration }) };
    let answer: { accepted: number; created_test_cases: number };
    let response: Response;
    try {
      if ('runId' in run) {
        const result = await client.POST('/api/v1/testruns/{id}/results', {
          params: { path: { id: run.runId } },
          body,
          headers,
        });
        refuseClosedRun(result);
        ({ response } = result);
        answer = dataOf(`POST /api/v1/testruns/{id}/results (${report.file})`, result);
      } else {
        const result = await client.POST('/api/v1/results/ingest', {
          body: { ...runParameters(run), ...body },
          headers,
        });
        refuseClosedRun(result);
        ({ response } = result);
        const data = dataOf(`POST /api/v1/results/ingest (${report.file})`, result);
        target.ranInto?.(data.test_run_id);
        answer = data;
      }
      uploaded.accepted += answer.accepted;
      uploaded.created_test_cases += answer.created_test_cases;
    } catch (error) {
      throw storedInPart(error, index, batches.length, uploaded.accepted);
    }
    if (replayed(response)) uploaded.replayed++;
  }
  return [uploaded];
}

/** Sends one upload to the run; answers for each of its files. */
export function uploadOne(
  client: ServiceClient,
  target: UploadTarget,
  upload: Upload,
): Promise<Uploaded[]> {
  if (upload.kind === 'junit') return uploadJunit(client, target, upload);
  if (upload.kind === 'document') return uploadDocument(client, target, upload.report);
  return uploadItems(client, target, upload.report);
}

/** A submit whose reports were not all stored: which were, which not and why. */
export class IncompleteUploadError extends ReporterError {
  constructor(
    message: string,
    readonly stored: Uploaded[],
    readonly notStored: { file: string; error: string }[],
  ) {
    super(message);
    this.name = 'IncompleteUploadError';
  }
}

/** Why a report was not stored: the reporter's message, else the unexpected error's. */
function reasonOf(error: unknown): string {
  if (error instanceof ReporterError) return error.message;
  const { name, message } = (error ?? {}) as Partial<Error>;
  return `unexpected error: ${name ?? 'Error'}: ${message ?? String(error)}`;
}

/**
 * Sends every upload, at most `concurrency` at a time, in their order. After one fails, no
 * other is started, and the ones on their way are awaited: the error then names exactly the
 * reports the service stored and those it did not, so that the same submit can be run again
 * (the stored ones are answered with their replay, not stored twice).
 */
export async function uploadAll(
  uploads: Upload[],
  concurrency: number,
  upload: (upload: Upload) => Promise<Uploaded[]>,
  /** How the run is named in the error: `"e2e" (<id>)`. */
  runName: string,
): Promise<Uploaded[]> {
  const failures = new Map<number, string>();
  const results = await mapConcurrently(uploads, concurrency, async (one, index) => {
    if (failures.size > 0) return undefined;
    try {
      return await upload(one);
    } catch (error) {
      failures.set(index, reasonOf(error));
      return undefined;
    }
  });
  const stored = results.flatMap((r) => r ?? []);
  if (failures.size === 0) return stored;
  const notStored = uploads.flatMap((one, index) =>
    results[index] === undefined
      ? one.reports.map((report) => ({
          file: report.file,
          error: failures.get(index) ?? 'not sent (an earlier report failed)',
        }))
      : [],
  );
  const total = stored.length + notStored.length;
  const again =
    stored.length === 0
      ? 'none was'
      : `the ${stored.length} stored already are answered with their replay, not stored twice`;
  throw new IncompleteUploadError(
    `${notStored.length} of ${total} reports were not stored in run ${runName}: run the same submit again (${again}).`,
    stored,
    notStored,
  );
}

/** Runs `task` over `items`, at most `concurrency` at a time, keeping the order of results. */
export async function mapConcurrently<T, R>(
  items: T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
