import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ReporterError } from './errors.js';
import { parseJsonResults, type ResultItem } from './json-report.js';
import { ReportSyntaxError, checkJunitXml } from './junit-check.js';
import { sha256 } from './keys.js';

export type Report =
  | { kind: 'junit'; file: string; bytes: Buffer; hash: string; cases: number }
  | { kind: 'json'; file: string; hash: string; items: ResultItem[]; cases: number };

function kindOf(file: string, text: string): 'junit' | 'json' {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.xml') return 'junit';
  if (extension === '.json') return 'json';
  return text
    .trimStart()
    .replace(/^\uFEFF/, '')
    .startsWith('<')
    ? 'junit'
    : 'json';
}

/**
 * Reads and checks one report; an unreadable or invalid one is an error naming the file and the
 * line (and column) of what is wrong.
 */
export function readReport(file: string, cwd: string): Report {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.resolve(cwd, file));
  } catch (error) {
    throw new ReporterError(
      `${file}: cannot read the report (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    );
  }
  const text = bytes.toString('utf8');
  const kind = kindOf(file, text);
  try {
    if (kind === 'junit') {
      // One over the service's 10 MiB goes in several calls, split between its suites (pack.ts).
      const { testcases } = checkJunitXml(text);
      return { kind, file, bytes, hash: sha256(bytes), cases: testcases };
    }
    const items = parseJsonResults(text);
    return { kind, file, hash: sha256(bytes), items, cases: items.length };
  } catch (error) {
    if (error instanceof ReportSyntaxError) {
      throw new ReporterError(
        `${file}:${error.line}${error.column === undefined ? '' : `:${error.column}`}: invalid ${kind === 'junit' ? 'JUnit XML' : 'JSON'} report: ${error.message}.`,
      );
    }
    throw error;
  }
}

/** Items in calls of at most `maxItems` and about `maxBytes` of JSON each. */
export function batchesOf(
  items: ResultItem[],
  maxItems = 5000,
  maxBytes = 9 * 1024 * 1024,
): ResultItem[][] {
  const batches: ResultItem[][] = [];
  let batch: ResultItem[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (batch.length > 0 && (batch.length >= maxItems || size + itemSize > maxBytes)) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(item);
    size += itemSize;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
