import type { JsonFormat } from './formats.js';
import { ReportSyntaxError, lineAt } from './report-syntax.js';
import type { components } from './schema.js';

export type ResultItem = components['schemas']['ResultItemDto'];

const STATUSES = new Set(['passed', 'failed', 'blocked', 'skipped', 'retest', 'untested']);

/**
 * Where JSON.parse stopped: Node 20's messages carry no position, so a small scanner walks the
 * text by JSON's grammar and returns the offset of the first thing that is not JSON.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    const literal = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
    literal.lastIndex = i;
    if (!literal.exec(text)) fail();
    i = literal.lastIndex;
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  try {
    value();
    ws();
    return i < text.length ? i : -1;
  } catch (at) {
    return typeof at === 'number' ? Math.min(at, text.length) : -1;
  }
}

/** Offsets of the objects opened at `depth` (1: in the root array, 2: in `results`). */
function objectStarts(text: string, depth: number): number[] {
  const starts: number[] = [];
  let level = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') {
      if (c === '{' && level === depth) starts.push(i);
      level++;
    } else if (c === '}' || c === ']') level--;
  }
  return starts;
}

/** What a JSON file holds: result items (the JSON command's), or a report of a §14 format. */
export type JsonFile =
  { kind: 'json'; items: ResultItem[] } | { kind: JsonFormat; results: number };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const at = jsonErrorOffset(text);
    throw new ReportSyntaxError(
      at === -1 ? 1 : lineAt(text, at),
      `not valid JSON (${(error as Error).message})`,
    );
  }
}

/** `document[name]`, or undefined when the document is not an object. */
const fieldOf = (document: unknown, name: string): unknown =>
  isObject(document) ? document[name] : undefined;

const sum = (list: unknown[], count: (element: unknown) => number): number =>
  list.reduce((total: number, element) => total + count(element), 0);

/** Playwright's tests: one per spec and project, in suites nested as the describe blocks. */
function playwrightTests(suite: unknown): number {
  if (!isObject(suite)) return 0;
  return (
    sum(listOf(suite.specs), (spec) => listOf(fieldOf(spec, 'tests')).length) +
    sum(listOf(suite.suites), playwrightTests)
  );
}

/**
 * The JSON report formats, told apart by the shapes CONTRACT §14 gives (as the service does),
 * each with how many results its document holds (for the dry run's line: the service decides).
 */
const JSON_SHAPES: {
  format: JsonFormat;
  is(document: unknown): boolean;
  results(document: unknown): number;
}[] = [
  {
    format: 'playwright',
    is: (d) => fieldOf(d, 'config') !== undefined && fieldOf(d, 'suites') !== undefined,
    results: (d) => sum(listOf(fieldOf(d, 'suites')), playwrightTests),
  },
  {
    format: 'ctrf',
    is: (d) =>
      fieldOf(fieldOf(d, 'results'), 'tool') !== undefined &&
      fieldOf(fieldOf(d, 'results'), 'tests') !== undefined,
    results: (d) => listOf(fieldOf(fieldOf(d, 'results'), 'tests')).length,
  },
  {
    format: 'jest',
    is: (d) => fieldOf(d, 'testResults') !== undefined,
    results: (d) =>
      sum(
        listOf(fieldOf(d, 'testResults')),
        (file) => listOf(fieldOf(file, 'assertionResults')).length,
      ),
  },
  {
    // An empty array is result items: nothing tells it is a Cucumber report.
    format: 'cucumber',
    is: (d) => Array.isArray(d) && fieldOf(d[0], 'elements') !== undefined,
    results: (d) =>
      sum(
        listOf(d),
        (feature) =>
          listOf(fieldOf(feature, 'elements')).filter(
            (element) => isObject(element) && element.type !== 'background',
          ).length,
      ),
  },
];

/**
 * What a JSON file is: a report of a format CONTRACT §14 takes (sent as it is), else result
 * items in the service's own form, an array of items or `{"results": [...]}` as
 * `POST /testruns/{id}/results` takes it. Anything else is refused, saying what is taken.
 */
export function readJsonFile(text: string): JsonFile {
  const parsed = parseJson(text);
  if (!(isObject(parsed) && Array.isArray(parsed.results))) {
    const shape = JSON_SHAPES.find((s) => s.is(parsed));
    if (shape) return { kind: shape.format, results: shape.results(parsed) };
  }
  return { kind: 'json', items: resultItemsOf(parsed, text) };
}

/** Result items from a JSON file in the service's own form (see `readJsonFile`). */
export function parseJsonResults(text: string): ResultItem[] {
  return resultItemsOf(parseJson(text), text);
}

/**
 * Each item is checked for what the service needs to accept it; the service validates the
 * rest.
 */
function resultItemsOf(parsed: unknown, text: string): ResultItem[] {
  const items = Array.isArray(parsed)
    ? parsed
    : isObject(parsed) && Array.isArray(parsed.results)
      ? parsed.results
      : undefined;
  if (!items) {
    throw new ReportSyntaxError(
      1,
      'expected result items (an array of them, or {"results": [...]}) or a report: Playwright JSON (config and suites), CTRF (results.tool and results.tests), Jest/Vitest --json (testResults) or Cucumber JSON (an array of features with elements)',
    );
  }
  const starts = objectStarts(text, Array.isArray(parsed) ? 1 : 2);
  const itemLine = (index: number) => lineAt(text, starts[index] ?? 0);
  items.forEach((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new ReportSyntaxError(itemLine(index), `results[${index}] is not an object`);
    }
    const { status, automation_id, test_case_id } = item as Record<string, unknown>;
    if (typeof status !== 'string' || !STATUSES.has(status)) {
      throw new ReportSyntaxError(
        itemLine(index),
        `results[${index}].status must be one of ${[...STATUSES].join(', ')}`,
      );
    }
    if (typeof automation_id !== 'string' && typeof test_case_id !== 'string') {
      throw new ReportSyntaxError(
        itemLine(index),
        `results[${index}] names no test case (automation_id or test_case_id)`,
      );
    }
  });
  return items as ResultItem[];
}
