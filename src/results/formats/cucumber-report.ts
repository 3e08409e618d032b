import type { ResultStatus } from '../entities/result-status.js';
import { mergeReruns } from '../report-reruns.js';
import type { ResultItem } from '../result-items.js';
import {
  isObject,
  type JsonObject,
  listAt,
  listField,
  objectAt,
  objectField,
  optionalList,
  optionalNumber,
  optionalString,
  stringField,
} from './json-fields.js';
import { type ReportOptions, withoutPathRoot } from './report-formats.js';
import {
  durationMs,
  NO_FAILURE,
  type ReportFailure,
  jsonReportItem,
  splitError,
} from './json-report-item.js';

/** Whether a parsed document is Cucumber JSON: a list of features with `elements`. */
export function isCucumberReport(document: unknown): boolean {
  return (
    Array.isArray(document) &&
    document.length > 0 &&
    isObject(document[0]) &&
    document[0].elements !== undefined
  );
}

/** Step statuses that decide a scenario's, strongest first (CONTRACT §14). */
const FAILED = 'failed';
const BLOCKING = new Set(['undefined', 'ambiguous']);
const SKIPPING = new Set(['skipped', 'pending']);

/** Cucumber writes step durations in nanoseconds. */
const NANOSECONDS_PER_MS = 1_000_000;

/** What a scenario's steps (background and hooks included) come to. */
interface StepsRead {
  failed: boolean;
  blocked: boolean;
  skipped: boolean;
  nanoseconds: number;
  /** The failed step's error, else the first undefined or ambiguous step's name. */
  failure: ReportFailure;
}

/**
 * Cucumber JSON: one result per scenario (an outline's row is one), named `uri.id`, with
 * `:line` after the id when scenarios of one feature share it (CONTRACT §14). A `background`
 * element (as Cucumber-JVM and Ruby write it) gives its steps to the scenario after it.
 */
export function parseCucumberReport(document: unknown, options: ReportOptions): ResultItem[] {
  const features = listAt(document, 'body');
  const items: ResultItem[] = [];
  for (let i = 0; i < features.length; i++) {
    const path = `body[${i}]`;
    readFeature(objectAt(features[i], path), path, options, items);
  }
  return mergeReruns(items);
}

function readFeature(
  feature: JsonObject,
  path: string,
  options: ReportOptions,
  items: ResultItem[],
): void {
  const uri = withoutPathRoot(stringField(feature, 'uri', path), options.pathRoot);
  const section = optionalString(feature, 'name', path) || uri || null;
  const elements = listField(feature, 'elements', path);
  const scenarios: Array<{
    element: JsonObject;
    path: string;
    id: string;
    background: StepsRead | null;
  }> = [];
  const idCounts = new Map<string, number>();
  let background: StepsRead | null = null;
  for (let i = 0; i < elements.length; i++) {
    const elementPath = `${path}.elements[${i}]`;
    const element = objectAt(elements[i], elementPath);
    if (optionalString(element, 'type', elementPath) === 'background') {
      background = readSteps(element, elementPath, null);
      continue;
    }
    const id = stringField(element, 'id', elementPath);
    idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
    scenarios.push({ element, path: elementPath, id, background });
    background = null;
  }
  for (const { element, path: elementPath, id, background: before } of scenarios) {
    let derivedId = `${uri}.${id}`;
    if ((idCounts.get(id) ?? 0) > 1) {
      const line = optionalNumber(element, 'line', elementPath);
      derivedId += `:${line ?? ''}`;
    }
    const steps = readSteps(element, elementPath, before);
    const status: ResultStatus = steps.failed
      ? 'failed'
      : steps.blocked
        ? 'blocked'
        : steps.skipped
          ? 'skipped'
          : 'passed';
    items.push(
      jsonReportItem(
        {
          derivedId,
          title: optionalString(element, 'name', elementPath) || id,
          section,
          final: {
            status,
            durationMs: durationMs(steps.nanoseconds / NANOSECONDS_PER_MS),
            ...(status === 'failed' || status === 'blocked' ? steps.failure : NO_FAILURE),
          },
          earlier: [],
          configuration: null,
        },
        options.configuration,
      ),
    );
  }
}

/** An element's hooks and steps, after the background's when it has one. */
function readSteps(element: JsonObject, path: string, background: StepsRead | null): StepsRead {
  const read: StepsRead = background
    ? { ...background }
    : { failed: false, blocked: false, skipped: false, nanoseconds: 0, failure: NO_FAILURE };
  for (const key of ['before', 'steps', 'after']) {
    const steps = optionalList(element, key, path);
    for (let i = 0; i < steps.length; i++) {
      const stepPath = `${path}.${key}[${i}]`;
      readStep(objectAt(steps[i], stepPath), stepPath, read);
    }
  }
  return read;
}

function readStep(step: JsonObject, path: string, read: StepsRead): void {
  const resultPath = `${path}.result`;
  const result = objectField(step, 'result', path);
  const status = stringField(result, 'status', resultPath);
  read.nanoseconds += Math.max(0, optionalNumber(result, 'duration', resultPath) ?? 0);
  const error = optionalString(result, 'error_message', resultPath);
  if (status === FAILED) {
    if (!read.failed) read.failure = splitError(error);
    read.failed = true;
  } else if (BLOCKING.has(status)) {
    if (!read.failed && !read.blocked) {
      const name = `${optionalString(step, 'keyword', path) ?? ''}${optionalString(step, 'name', path) ?? ''}`;
      read.failure = error
        ? splitError(error)
        : { ...NO_FAILURE, message: `${status} step: ${name.trim()}` };
    }
    read.blocked = true;
  } else if (SKIPPING.has(status)) {
    read.skipped = true;
  }
}
