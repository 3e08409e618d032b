import { dataOf, replayed, type ServiceClient } from './client.js';
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

/**
 * Sends one report to the run. A JUnit report goes as is to `POST /results/ingest`; a JSON file's
 * items go to `POST /testruns/{id}/results` in calls of at most 5,000. Each call's
 * `Idempotency-Key` is derived from the run and the file's content (and the batch), so sending
 * the same file again, from a retry or another shard, stores nothing twice.
 */
export async function uploadReport(
  client: ServiceClient,
  runId: string,
  report: Report,
): Promise<Uploaded> {
  const uploaded: Uploaded = {
    file: report.file,
    kind: report.kind,
    accepted: 0,
    created_test_cases: 0,
    replayed: 0,
  };
  if (report.kind === 'junit') {
    const result = await client.POST('/api/v1/results/ingest', {
      params: { query: { test_run_id: runId } },
      body: report.bytes as unknown as string,
      bodySerializer: (body: unknown) => body as string,
      headers: {
        'Content-Type': 'application/xml',
        'Idempotency-Key': idempotencyKey('junit', runId, report.hash),
      },
    });
    const data = dataOf(`POST /api/v1/results/ingest (${report.file})`, result);
    uploaded.accepted = data.accepted;
    uploaded.created_test_cases = data.created_test_cases;
    if (replayed(result.response)) uploaded.replayed++;
    return uploaded;
  }
  const batches = batchesOf(report.items);
  for (const [index, batch] of batches.entries()) {
    const result = await client.POST('/api/v1/testruns/{id}/results', {
      params: { path: { id: runId } },
      body: { results: batch },
      headers: {
        'Idempotency-Key': idempotencyKey(
          'results',
          runId,
          report.hash,
          `${index}/${batches.length}`,
        ),
      },
    });
    const data = dataOf(`POST /api/v1/testruns/{id}/results (${report.file})`, result);
    uploaded.accepted += data.accepted;
    uploaded.created_test_cases += data.created_test_cases;
    if (replayed(result.response)) uploaded.replayed++;
  }
  return uploaded;
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
