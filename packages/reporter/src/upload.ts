import { dataOf, replayed, type ServiceClient } from './client.js';
import { ReporterError, asEnvelope } from './errors.js';
import { idempotencyKey } from './keys.js';
import { batchesOf, type Report } from './reports.js';

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
  runId: string;
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

/**
 * Sends one report to the run. A report document goes as is to `POST /results/ingest`, its
 * format named, with the path root; result items (a JSON file's, an Allure folder's) go to
 * `POST /testruns/{id}/results` in calls of at most 5,000. Each call's `Idempotency-Key` is
 * derived from the run, the configuration, the path root and the file's content (and the
 * batch), so sending the same file again, from a retry, a second submit or another shard,
 * stores nothing twice.
 */
export async function uploadReport(
  client: ServiceClient,
  target: UploadTarget,
  report: Report,
): Promise<Uploaded> {
  const { runId, configuration, pathRoot } = target;
  const keyOf = (kind: string, ...parts: string[]) =>
    idempotencyKey(
      kind,
      runId,
      report.hash,
      ...parts,
      ...(configuration === undefined ? [] : [`configuration:${configuration}`]),
      ...(target.rerun === undefined ? [] : [`rerun:${target.rerun}`]),
    );
  const uploaded: Uploaded = {
    file: report.file,
    kind: report.kind,
    accepted: 0,
    created_test_cases: 0,
    replayed: 0,
  };
  if ('bytes' in report) {
    const result = await client.POST('/api/v1/results/ingest', {
      params: {
        query: {
          test_run_id: runId,
          format: report.kind,
          ...(configuration && { configuration }),
          ...(pathRoot && { path_root: pathRoot }),
        },
      },
      body: report.bytes as unknown as string,
      bodySerializer: (body: unknown) => body as string,
      headers: {
        'Content-Type': report.contentType,
        'Idempotency-Key': keyOf(report.kind, ...(pathRoot ? [`path_root:${pathRoot}`] : [])),
      },
    });
    refuseClosedRun(result);
    const data = dataOf(`POST /api/v1/results/ingest (${report.file})`, result);
    uploaded.accepted = data.accepted;
    uploaded.created_test_cases = data.created_test_cases;
    if (replayed(result.response)) uploaded.replayed++;
    return uploaded;
  }
  const batches = batchesOf(report.items);
  for (const [index, batch] of batches.entries()) {
    let result;
    try {
      result = await client.POST('/api/v1/testruns/{id}/results', {
        params: { path: { id: runId } },
        body: { results: batch, ...(configuration && { configuration }) },
        headers: { 'Idempotency-Key': keyOf('results', `${index}/${batches.length}`) },
      });
      refuseClosedRun(result);
      const data = dataOf(`POST /api/v1/testruns/{id}/results (${report.file})`, result);
      uploaded.accepted += data.accepted;
      uploaded.created_test_cases += data.created_test_cases;
    } catch (error) {
      // A file of several calls may be stored in part: say how much of it was.
      if (index === 0 || !(error instanceof ReporterError)) throw error;
      throw new ReporterError(
        `${error.message} (its first ${index} of ${batches.length} calls were stored: ${uploaded.accepted} results)`,
      );
    }
    if (replayed(result.response)) uploaded.replayed++;
  }
  return uploaded;
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
 * Sends every report, at most `concurrency` at a time, in their order. After a report fails, no
 * other is started, and the ones on their way are awaited: the error then names exactly the
 * reports the service stored and those it did not, so that the same submit can be run again
 * (the stored ones are answered with their replay, not stored twice).
 */
export async function uploadAll(
  reports: Report[],
  concurrency: number,
  upload: (report: Report) => Promise<Uploaded>,
  /** How the run is named in the error: `"e2e" (<id>)`. */
  runName: string,
): Promise<Uploaded[]> {
  const failures = new Map<number, string>();
  const results = await mapConcurrently(reports, concurrency, async (report, index) => {
    if (failures.size > 0) return undefined;
    try {
      return await upload(report);
    } catch (error) {
      failures.set(index, reasonOf(error));
      return undefined;
    }
  });
  if (failures.size === 0) return results as Uploaded[];
  const stored = results.filter((r): r is Uploaded => r !== undefined);
  const notStored = reports.flatMap((report, index) =>
    results[index] === undefined
      ? [{ file: report.file, error: failures.get(index) ?? 'not sent (an earlier report failed)' }]
      : [],
  );
  const again =
    stored.length === 0
      ? 'none was'
      : `the ${stored.length} stored already are answered with their replay, not stored twice`;
  throw new IncompleteUploadError(
    `${notStored.length} of ${reports.length} reports were not stored in run ${runName}: run the same submit again (${again}).`,
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
