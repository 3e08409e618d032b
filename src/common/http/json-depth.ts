import { ApiError } from '../errors/api-error.js';

/** Deepest nesting of objects and arrays a JSON body may have (CONTRACT §1). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Whether raw UTF-8 JSON nests objects and arrays deeper than `max`, read from the bytes
 * before the body is parsed: the validation of a request body (class-transformer) recurses
 * per level, and a 3 KB body of 1,500 levels overflowed the stack (a 500). Strings are skipped
 * with a native search for their closing quote, so the scan costs little beside the parse.
 * Malformed JSON answers false: the parser reports it.
 */
export function nestsDeeperThan(json: Buffer, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i];
    if (byte === QUOTE) {
      i = closingQuote(json, i);
      if (i < 0) return false;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * How a JSON body outgrows a route's `BodyListsRule`, or null: `results` (a list of the
 * top-level object), `list` (any other) or `containers` beyond the command's bounds,
 * `report_list` or `report_containers` beyond a report's, or `deep`.
 */
export type ListsOverflow =
  'results' | 'list' | 'containers' | 'report_list' | 'report_containers' | 'deep';

/** Items any list may hold, and objects and lists the whole body may hold. */
export interface ListBounds {
  items: number;
  containers: number;
}

/**
 * Whether raw UTF-8 JSON holds a list of more than `maxItems` items (`results`: a list of the
 * top-level object; `list`: any other) or more than `maxContainers` objects and lists, counted
 * from the bytes before the body is parsed: a body of 200,000 tiny items, or of 3 million `{}`,
 * is refused without building them (each costs 20 to 40 times its bytes once parsed). Items are
 * counted by their commas; malformed JSON answers whatever it counts: the parser reports it.
 * The same pass checks the depth (`deep`: as `nestsDeeperThan`), so a route with such a rule
 * reads a 10 MiB body once, not twice.
 *
 * With `report` bounds, those bounds are the command's only when the body is the command: an
 * object whose `results` is a list (CONTRACT §14); any other body (a runner's report) is held
 * to `report` instead. The scan then reads on past the command's bounds until it knows which
 * the body is (its `results` may come last).
 */
export function listsOverflow(
  json: Buffer,
  maxItems: number,
  maxContainers: number,
  report?: ListBounds,
): ListsOverflow | null {
  // Per open object or list, outermost first: a list's commas so far, or -1 for an object.
  const open: number[] = [];
  let containers = 0;
  // Without report bounds every body is held to the command's.
  let command = report === undefined;
  // The first of the command's bounds the body went past.
  let beyondCommand: ListsOverflow | null = null;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i];
    if (byte === QUOTE) {
      const end = closingQuote(json, i);
      if (end < 0) break;
      if (!command && open.length === 1 && open[0] < 0 && opensResultsList(json, i, end)) {
        command = true;
        if (beyondCommand !== null) return beyondCommand;
      }
      i = end;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (open.length >= MAX_JSON_DEPTH) return 'deep';
      if (++containers > maxContainers) {
        if (command) return 'containers';
        beyondCommand ??= 'containers';
        if (containers > (report as ListBounds).containers) return 'report_containers';
      }
      open.push(byte === OPEN_BRACKET ? 0 : -1);
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      open.pop();
    } else if (byte === COMMA) {
      const last = open.length - 1;
      if (last < 0 || open[last] < 0) continue;
      const commas = ++open[last];
      if (commas < maxItems) continue;
      const kind = last === 1 && open[0] < 0 ? 'results' : 'list';
      if (command) return kind;
      beyondCommand ??= kind;
      if (commas >= (report as ListBounds).items) return 'report_list';
    }
  }
  return command ? beyondCommand : null;
}

const RESULTS_KEY = 'results';

/**
 * Whether the string from `start` to `end` (its quotes) is the key `results` with a list as its
 * value. A key spelled with escapes (`"res\u0075lts"`) is decoded: it is the same key.
 */
function opensResultsList(json: Buffer, start: number, end: number): boolean {
  let at = afterWhitespace(json, end + 1);
  if (json[at] !== COLON) return false;
  at = afterWhitespace(json, at + 1);
  if (json[at] !== OPEN_BRACKET) return false;
  const raw = json.toString('utf8', start + 1, end);
  if (!raw.includes('\\')) return raw === RESULTS_KEY;
  try {
    return JSON.parse(`"${raw}"`) === RESULTS_KEY;
  } catch {
    return false;
  }
}

function afterWhitespace(json: Buffer, from: number): number {
  let at = from;
  while (
    at < json.length &&
    (json[at] === 0x20 || json[at] === 0x0a || json[at] === 0x0d || json[at] === 0x09)
  )
    at++;
  return at;
}

/** Index of the quote that closes the string opened at `start`, or -1. */
function closingQuote(json: Buffer, start: number): number {
  let at = start;
  for (;;) {
    at = json.indexOf(QUOTE, at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (json[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** The same question of a parsed value (for bodies in UTF-16 or UTF-32), without recursion. */
export function valueNestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return true;
    for (const item of Object.values(current)) pending.push([item, depth + 1]);
  }
  return false;
}

export function tooDeep(): ApiError {
  return ApiError.invalidField(
    'body',
    `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`,
  );
}
