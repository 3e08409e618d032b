import { readFileSync } from 'node:fs';
import { ApiError } from '../../src/common/errors/api-error.js';
import type { ResultItem } from '../../src/results/result-items.js';
import type { ReportOptions } from '../../src/results/formats/report-formats.js';

/** The options of a call that names no configuration and no path root. */
export const NO_OPTIONS: ReportOptions = { configuration: null, pathRoot: null };

/** A committed report fixture (`test/fixtures/reports/<format>/<file>`), as text. */
export function fixture(path: string): string {
  return readFileSync(`test/fixtures/reports/${path}`, 'utf8');
}

/** Each item as `[automation id, status]`, in order. */
export function idsAndStatuses(items: ResultItem[]): Array<[string | null, string]> {
  return items.map((item) => [item.automationId, item.status]);
}

/** The ApiError `run` throws (a test fails when it throws nothing, or something else). */
export function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal, got none');
}
