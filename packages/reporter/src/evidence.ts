import path from 'node:path';
import { ITEM_LIMITS, cutText, shortened } from './item-limits.js';

/**
 * Evidence: a screenshot, a video, a trace or a log that a report names beside a test's result
 * (CONTRACT §15), to be attached to that result. The reports name it in their own ways
 * (evidence-documents.ts: Playwright's JSON `attachments`, CTRF's `attachments`, Cucumber's
 * base64 `embeddings`; evidence-junit.ts: `[[ATTACHMENT|path]]` lines; allure.ts: an Allure
 * result's and its steps' `attachments`); each becomes an `Evidence` that names the result's
 * slot (section 13) as the service derived it from the same report, so the create call can name
 * it by automation id and configuration.
 */
export interface Evidence {
  /** The report that named it, for warnings. */
  report: string;
  /** The slot's automation id, as the service derives it from the report (§13, §14). */
  automationId: string;
  /** The slot's configuration when the report names one; else the call's (`--configuration`). */
  configuration?: string;
  /** How the result lists it: 1–255 characters. */
  name: string;
  contentType: string;
  /** A file on disk (hashed and sent streamed), or bytes the report carries (base64 embeddings). */
  source: { file: string } | { bytes: Buffer };
}

/** What each reader is given beside its report. */
export interface EvidenceContext {
  /** The report's file as given (relative to `cwd`) and the folder its relative paths start in. */
  report: string;
  reportDir: string;
  cwd: string;
  pathRoot?: string;
}

/** The longest name the service takes. */
const MAX_NAME = 255;

/** A media type as the service takes it: `type/subtype` and optional parameters. */
const MEDIA_TYPE =
  /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/** Media types by file extension, for evidence whose report names none (JUnit, Allure's odd ones). */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.zip': 'application/zip',
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
  '.xml': 'application/xml',
};

/** Extensions by media type, for bytes a report embeds without a file name. */
const EXTENSION_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(BY_EXTENSION)
    .reverse()
    .map(([extension, type]) => [type, extension]),
);

/** The report's media type when it is one the service takes, else the file extension's. */
export function contentTypeOf(given: unknown, name: string): string {
  if (typeof given === 'string' && given.length <= 255 && MEDIA_TYPE.test(given.trim()))
    return given.trim();
  return BY_EXTENSION[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** A name the service takes: the given one cut to 255 characters, `attachment` when blank. */
export function nameOf(given: string): string {
  const name = given.trim();
  return name === '' ? 'attachment' : cutText(name, MAX_NAME);
}

/** `name` with the file's extension when it has none (Allure's `error-context` of an `.md`). */
export const withExtensionOf = (name: string, file: string): string =>
  path.extname(name) === '' ? `${name}${path.extname(file)}` : name;

/** A name for embedded bytes: `<base>` with the extension of their media type. */
export function embeddedName(base: string, contentType: string): string {
  const extension = EXTENSION_OF[contentType.split(';')[0].trim().toLowerCase()] ?? '';
  return nameOf(path.extname(base) === '' ? `${base}${extension}` : base);
}

/**
 * The file a report names: an absolute path as it is; a relative one from the report's folder
 * when it is there (Playwright's JUnit lines are relative to the report), else from the working
 * directory.
 */
export function resolveEvidencePath(
  given: string,
  context: EvidenceContext,
  exists: (file: string) => boolean,
): string {
  if (path.isAbsolute(given)) return given;
  const besideReport = path.resolve(context.reportDir, given);
  return exists(besideReport) ? besideReport : path.resolve(context.cwd, given);
}

/** An automation id as the service keeps one derived from a report (CONTRACT §13). */
export const slotId = (derived: string): string =>
  shortened(derived === '' ? 'unnamed' : derived, ITEM_LIMITS.automationId);

/** A configuration the report names, as the service keeps it: trimmed, cut, blank for none. */
export function slotConfiguration(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const value = cutText(name.trim(), ITEM_LIMITS.configuration).trim();
  return value === '' ? undefined : value;
}

/** `path` without `pathRoot` in front (as the service takes it off the report's file paths). */
export const withoutPathRoot = (file: string, pathRoot: string | undefined): string =>
  pathRoot && file.startsWith(pathRoot) ? file.slice(pathRoot.length) : file;

/** Titles joined as the service joins them: ` › `, empty ones left out. */
export const joinTitles = (parts: readonly string[]): string =>
  parts.filter((part) => part !== '').join(' › ');
