import { ReportSyntaxError, lineAt } from './junit-check.js';
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

/**
 * Result items from a JSON file in the service's own format: an array of items, or
 * `{"results": [...]}` as `POST /testruns/{id}/results` takes it. Each item is checked for what
 * the service needs to accept it; the service validates the rest.
 */
export function parseJsonResults(text: string): ResultItem[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const at = jsonErrorOffset(text);
    throw new ReportSyntaxError(
      at === -1 ? 1 : lineAt(text, at),
      `not valid JSON (${(error as Error).message})`,
    );
  }
  const items = Array.isArray(parsed)
    ? parsed
    : typeof parsed === 'object' &&
        parsed !== null &&
        Array.isArray((parsed as { results?: unknown }).results)
      ? (parsed as { results: unknown[] }).results
      : undefined;
  if (!items) {
    throw new ReportSyntaxError(1, 'expected an array of result items or {"results": [...]}');
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
