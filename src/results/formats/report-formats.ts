/**
 * The report documents `POST /results/ingest` takes as its body (CONTRACT §14), besides the
 * JSON command of section 6. Each is recognised from the document, or named by the query's
 * `format`; each has a parser of its own in this folder, all producing result items.
 */
export const REPORT_FORMATS = [
  'junit',
  'playwright',
  'ctrf',
  'jest',
  'cucumber',
  'trx',
  'nunit',
  'xunit',
  'robot',
] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What every report parser is given beside the document. */
export interface ReportOptions {
  /** The call's configuration: results the report puts in none take it (CONTRACT §13). */
  configuration: string | null;
  /** Taken off the front of the report's file paths (CONTRACT §14), or null. */
  pathRoot: string | null;
}

/** Longest `path_root` taken. */
export const MAX_PATH_ROOT = 1024;

/** `path` without `pathRoot` in front (as given when it does not start with it). */
export function withoutPathRoot(path: string, pathRoot: string | null): string {
  return pathRoot && path.startsWith(pathRoot) ? path.slice(pathRoot.length) : path;
}
