import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ALLURE_RESULT, allureResultFiles, readAllureResults } from './allure.js';
import type { Evidence } from './evidence.js';
import { ReporterError } from './errors.js';
import { labelOf, type DocumentFormat } from './formats.js';
import { expandPatterns } from './glob.js';
import { readJsonFile, type ResultItem } from './json-report.js';
import { sha256 } from './keys.js';
import { MAX_BODY_BYTES } from './pack.js';
import { ReportSyntaxError } from './report-syntax.js';
import { XmlReportError, checkXmlReport } from './xml-check.js';

/**
 * A report as it is sent: a document of a format the service reads (CONTRACT §14), sent as it
 * is to `POST /results/ingest` with its format named; or result items (a JSON results file, an
 * Allure results folder), sent in the JSON command form. `cases` is what the local check
 * counted (the service decides).
 */
export type Report =
  | {
      kind: DocumentFormat;
      file: string;
      bytes: Buffer;
      hash: string;
      cases: number;
      contentType: 'application/xml' | 'application/json';
    }
  | {
      kind: 'json' | 'allure';
      file: string;
      hash: string;
      items: ResultItem[];
      cases: number;
      /** An Allure folder's attachments (allure.ts), tied to its items. */
      evidence?: Evidence[];
    };

/**
 * Every report the patterns name, in their order: a folder, or the files of an
 * `allure-results` folder, is an Allure results folder, its `*-result.json` files read into
 * result items (`pathRoot` taken off the front of their `fullName`s); any other file is one
 * report.
 */
export function readReports(patterns: string[], cwd: string, pathRoot?: string): Report[] {
  const entries: ({ file: string } | { folder: string; files: string[] })[] = [];
  const folders = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const pattern of patterns) {
    if (isFolder(pattern, cwd)) {
      entries.push({ folder: pattern, files: allureResultFiles(pattern, cwd) });
      continue;
    }
    for (const file of expandPatterns([pattern], cwd)) {
      const full = path.resolve(cwd, file);
      if (seen.has(full)) continue;
      seen.add(full);
      const folder = path.dirname(file);
      if (path.basename(folder) !== 'allure-results') {
        entries.push({ file });
        continue;
      }
      // Beside its results, an Allure folder holds containers and attachments: not reports.
      let files = folders.get(folder);
      if (!files) {
        files = [];
        folders.set(folder, files);
        entries.push({ folder, files });
      }
      if (ALLURE_RESULT.test(file)) files.push(file);
    }
  }
  return entries.map((entry) =>
    'file' in entry
      ? readReport(entry.file, cwd)
      : readAllureReport(entry.folder, entry.files, cwd, pathRoot),
  );
}

const GLOB_CHARS = /[*?{[]/;

function isFolder(pattern: string, cwd: string): boolean {
  if (GLOB_CHARS.test(pattern)) return false;
  const full = path.resolve(cwd, pattern);
  return existsSync(full) && statSync(full).isDirectory();
}

function readAllureReport(
  folder: string,
  files: string[],
  cwd: string,
  pathRoot: string | undefined,
): Report {
  if (files.length === 0) {
    throw new ReporterError(
      `${folder}: a folder is read as Allure results, but it holds no *-result.json file (for the reports in a folder, give a glob such as '${folder}/**/*.xml').`,
    );
  }
  const { items, evidence } = readAllureResults(files, cwd, pathRoot, folder);
  return {
    kind: 'allure',
    file: folder,
    hash: sha256(JSON.stringify(items)),
    items,
    cases: items.length,
    evidence,
  };
}

function isXml(file: string, text: string): boolean {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.xml' || extension === '.trx') return true;
  if (extension === '.json') return false;
  return text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('<');
}

/**
 * Reads and checks one report file; an unreadable or invalid one is an error naming the file
 * and the line (and column) of what is wrong.
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
  const xml = isXml(file, text);
  try {
    if (xml) {
      const { format, results } = checkXmlReport(text);
      return document(file, format, bytes, results, 'application/xml');
    }
    const json = readJsonFile(text);
    if (json.kind !== 'json') {
      return document(file, json.kind, bytes, json.results, 'application/json');
    }
    return {
      kind: 'json',
      file,
      hash: sha256(bytes),
      items: json.items,
      cases: json.items.length,
    };
  } catch (error) {
    if (error instanceof ReportSyntaxError) {
      const format = error instanceof XmlReportError ? error.format : undefined;
      const what = format ? labelOf(format) : xml ? 'XML' : 'JSON';
      throw new ReporterError(
        `${file}:${error.line}${error.column === undefined ? '' : `:${error.column}`}: invalid ${what} report: ${error.message}.`,
      );
    }
    throw error;
  }
}

/** A report sent as it is: within the body limit. */
function document(
  file: string,
  kind: DocumentFormat,
  bytes: Buffer,
  cases: number,
  contentType: 'application/xml' | 'application/json',
): Report {
  // A JUnit report over the service's 10 MiB goes in several calls, split between its suites
  // (pack.ts); a document of another format goes as it is, in one.
  if (kind !== 'junit' && bytes.length > MAX_BODY_BYTES) {
    throw new ReporterError(
      `${file}: the report is ${(bytes.length / 1048576).toFixed(1)} MiB; the service takes at most 10 MiB per ${labelOf(kind)} report (split it).`,
    );
  }
  return { kind, file, bytes, hash: sha256(bytes), cases, contentType };
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
