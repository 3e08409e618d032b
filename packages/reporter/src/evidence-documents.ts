import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  contentTypeOf,
  embeddedName,
  joinTitles,
  nameOf,
  resolveEvidencePath,
  slotConfiguration,
  slotId,
  withoutPathRoot,
  type Evidence,
  type EvidenceContext,
} from './evidence.js';

/**
 * The evidence named by the JSON report documents the service reads (CONTRACT §14), each test's
 * slot derived as the service derives it from the same document (src/results/formats/): a
 * Playwright test × project, a CTRF test, a Cucumber scenario. The document was checked already
 * (reports.ts); anything here of another shape than expected is skipped, never an error: a
 * report's results matter more than its pictures.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** One attachment a JSON report names: a file (`path`) or its bytes inline (`body`, base64). */
function attachmentOf(
  attachment: unknown,
  context: EvidenceContext,
  slot: { automationId: string; configuration?: string },
  prefix = '',
): Evidence | undefined {
  if (!isObject(attachment)) return undefined;
  const file = text(attachment.path);
  const given = text(attachment.name) ?? '';
  if (file !== undefined && file !== '') {
    const name = nameOf(`${prefix}${path.basename(file)}`);
    return {
      report: context.report,
      ...slot,
      name,
      contentType: contentTypeOf(attachment.contentType, file),
      source: { file: resolveEvidencePath(file, context, existsSync) },
    };
  }
  const body = text(attachment.body);
  if (body === undefined) return undefined;
  const contentType = contentTypeOf(attachment.contentType, given);
  return {
    report: context.report,
    ...slot,
    name: embeddedName(`${prefix}${given || 'attachment'}`, contentType),
    contentType,
    source: { bytes: Buffer.from(body, 'base64') },
  };
}

/**
 * Playwright's JSON reporter: each test (a spec in a project) is the slot `file.titles` in the
 * project's configuration; the attachments of all its results (the screenshot of a failed
 * attempt, the video and trace of its retry) go to that one result, those of a retry named
 * `retry<N>-<file>` so that attempts' files of the same name stay apart.
 */
export function playwrightEvidence(document: unknown, context: EvidenceContext): Evidence[] {
  const found: Evidence[] = [];
  const readSuite = (suite: unknown, titles: string[], file: string | undefined) => {
    if (!isObject(suite)) return;
    for (const spec of listOf(suite.specs)) {
      if (!isObject(spec)) continue;
      const title = text(spec.title) ?? '';
      const specFile = withoutPathRoot(text(spec.file) ?? file ?? '', context.pathRoot);
      const name = joinTitles([...titles, title]);
      const automationId = slotId(specFile === '' ? name : `${specFile}.${name}`);
      for (const test of listOf(spec.tests)) {
        if (!isObject(test)) continue;
        const slot = { automationId, configuration: slotConfiguration(test.projectName) };
        for (const result of listOf(test.results)) {
          if (!isObject(result)) continue;
          const retry = typeof result.retry === 'number' && result.retry > 0 ? result.retry : 0;
          for (const attachment of listOf(result.attachments)) {
            const one = attachmentOf(attachment, context, slot, retry ? `retry${retry}-` : '');
            if (one) found.push(one);
          }
        }
      }
    }
    for (const child of listOf(suite.suites)) {
      if (!isObject(child)) continue;
      readSuite(child, [...titles, text(child.title) ?? ''], text(child.file) ?? file);
    }
  };
  // A top-level suite is a file: its title is the file, not a title of its tests.
  if (isObject(document))
    for (const suite of listOf(document.suites))
      if (isObject(suite)) readSuite(suite, [], text(suite.file));
  return found;
}

/** CTRF: each test is the slot `filePath.suite › name`, its `attachments` files (or bodies). */
export function ctrfEvidence(document: unknown, context: EvidenceContext): Evidence[] {
  const found: Evidence[] = [];
  const results = isObject(document) && isObject(document.results) ? document.results : {};
  for (const test of listOf(results.tests)) {
    if (!isObject(test) || listOf(test.attachments).length === 0) continue;
    const filePath = withoutPathRoot(text(test.filePath) ?? '', context.pathRoot);
    const suite = Array.isArray(test.suite)
      ? joinTitles(test.suite.filter((s): s is string => typeof s === 'string'))
      : (text(test.suite) ?? '');
    let derived = text(test.name) ?? '';
    if (suite !== '') derived = `${suite} › ${derived}`;
    if (filePath !== '') derived = `${filePath}.${derived}`;
    const slot = { automationId: slotId(derived) };
    for (const attachment of listOf(test.attachments)) {
      const one = attachmentOf(attachment, context, slot);
      if (one) found.push(one);
    }
  }
  return found;
}

/**
 * Cucumber JSON: each scenario is the slot `uri.id` (with `:line` when scenarios of a feature
 * share the id); the embeddings of its steps, hooks and background (base64 `data`, `mime_type`
 * or `media.type`) are its evidence.
 */
export function cucumberEvidence(document: unknown, context: EvidenceContext): Evidence[] {
  const found: Evidence[] = [];
  for (const feature of listOf(document)) {
    if (!isObject(feature)) continue;
    const uri = withoutPathRoot(text(feature.uri) ?? '', context.pathRoot);
    const elements = listOf(feature.elements).filter(isObject);
    const idCounts = new Map<string, number>();
    for (const element of elements) {
      if (element.type === 'background') continue;
      const id = text(element.id) ?? '';
      idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
    }
    let background: Json | undefined;
    for (const element of elements) {
      if (element.type === 'background') {
        background = element;
        continue;
      }
      const id = text(element.id) ?? '';
      let derived = `${uri}.${id}`;
      if ((idCounts.get(id) ?? 0) > 1)
        derived += `:${typeof element.line === 'number' ? element.line : ''}`;
      const slot = { automationId: slotId(derived) };
      const steps = [background, element].flatMap((part) =>
        part ? [...listOf(part.before), ...listOf(part.steps), ...listOf(part.after)] : [],
      );
      background = undefined;
      let n = 0;
      for (const step of steps) {
        if (!isObject(step)) continue;
        for (const embedding of listOf(step.embeddings)) {
          if (!isObject(embedding) || typeof embedding.data !== 'string') continue;
          const media = isObject(embedding.media) ? embedding.media.type : undefined;
          const contentType = contentTypeOf(embedding.mime_type ?? media, '');
          n++;
          found.push({
            report: context.report,
            ...slot,
            name: embeddedName(text(embedding.name) ?? `embedding-${n}`, contentType),
            contentType,
            source: { bytes: Buffer.from(embedding.data, 'base64') },
          });
        }
      }
    }
  }
  return found;
}
