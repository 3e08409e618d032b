import { createHash } from 'node:crypto';
import type { ResultStatus } from './entities/result-status.js';

/**
 * A failure's signature (CONTRACT §12): a hash of the failure type and of the message with
 * what varies between runs replaced by placeholders, so the same error in another run or
 * another case has the same signature, and failures can be grouped by it.
 */

/** How much of the normalized message is hashed: enough to tell errors apart, cheap to read. */
export const SIGNATURE_MESSAGE_LENGTH = 1000;

const SIGNED_STATUSES: ReadonlySet<ResultStatus> = new Set(['failed', 'blocked']);

const MONTH = /(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*/.source;
const WEEKDAY = /(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*/.source;

/**
 * What varies between runs, and what replaces it; at a position, the first that matches wins.
 * Each is linear: a repeated class ends at a character it cannot match, or may only start
 * where a lookbehind says a token starts, so no position is read again and again.
 */
const VARIABLE_PARTS: ReadonlyArray<readonly [RegExp, string | ((part: string) => string)]> = [
  [/\b[\da-fA-F]{8}-[\da-fA-F]{4}-[\da-fA-F]{4}-[\da-fA-F]{4}-[\da-fA-F]{12}\b/, '<uuid>'],
  // 2026-11-23, 2026-11-23T10:00:00.123Z, 2026-11-23 10:00:00+01:00
  [
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2}\b)?)?/,
    '<time>',
  ],
  // Mon, 23 Nov 2026 and Nov 23, 2026: the names of days and months vary as numbers do.
  [
    new RegExp(`\\b(?:${WEEKDAY},? )?(?:\\d{1,2} ${MONTH},? \\d{4}|${MONTH} \\d{1,2},? \\d{4})\\b`),
    '<time>',
  ],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/, '<time>'],
  // Python: File "/app/tests/test_x.py", line 42
  [/\bFile "[^"\n]*", line \d+/, 'File <path>'],
  // Go names the test in its own lines: --- FAIL: TestFoo (0.02s)
  [
    /(?:--- (?:FAIL|PASS|SKIP): |=== (?:RUN|PAUSE|CONT|NAME) +)[^\s(]+/,
    (part) => `${part.slice(0, part.lastIndexOf(' ') + 1)}<test>`,
  ],
  // foo_test.go:42, (/home/runner/work/app/src/foo.test.ts:42:13), C:\x\y.py:12. It needs a
  // dot or a slash: `localhost:8080` is not a file.
  [
    /(?<![\w./\\@~+-])(?:[A-Za-z]:(?=[\\/]))?(?=[\w@~+-]*[./\\])[\w./\\@~+-]+:\d+(?::\d+)?/,
    '<path>',
  ],
  // Addresses and object ids (0x7ffd5a3c, commit shas) are numbers too. Without a digit, a
  // run of hex letters is more likely a word (deadline, facade); without a letter, it is
  // left to the numbers below, so 12345678.9 stays one number.
  [/\b0x[\da-fA-F]+\b/, '#'],
  [/\b(?=\d*[a-fA-F])(?=[a-fA-F]*\d)[\da-fA-F]{8,}\b/, '#'],
  // A quote after a letter is an apostrophe (don't); an escaped quote opens nothing.
  [/(?<![\w\\])(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\\n]|\\.)*`)/, '<str>'],
  // JUnit and opentest4j: expected:<12> but was:<13>
  [
    /\b(?:[Ee]xpected|[Ww]as|[Aa]ctual): ?<[^<>\n]*>/,
    (part) => `${part.slice(0, part.indexOf('<'))}<str>`,
  ],
  // Integers, decimals, versions, exponents, negatives; a unit stays (30000ms: #ms).
  [/(?:(?<![\w)\]])-)?\d+(?:\.\d+)*(?:[eE][-+]?\d+)?/, '#'],
  [/\s+/, ' '],
];

/**
 * One group per entry of VARIABLE_PARTS. Sticky: tried at one position at a time, so reading
 * stops when enough is written, where a global search would scan on for the next match.
 */
const VARIABLE_PART = new RegExp(
  VARIABLE_PARTS.map(([pattern]) => `(${pattern.source})`).join('|'),
  'y',
);

/** Colours from terminal reporters (Jest, Mocha) are escapes, not text. */
const TERMINAL_ESCAPE = /\u001b\[[\d;]*[A-Za-z]/g;

/**
 * The message with what varies between runs replaced: UUIDs by `<uuid>`, dates and times by
 * `<time>`, file positions by `<path>`, quoted values by `<str>`, numbers and hex ids by `#`;
 * whitespace collapsed and trimmed. Case is kept (`TypeError` is not `typeerror`).
 *
 * The message is read left to right and reading stops once `maxLength` characters are
 * written, so a 1 MB message costs what its first lines cost; the result is the same as
 * normalizing all of it and keeping the first `maxLength` characters.
 */
export function normalizeFailureMessage(
  message: string,
  maxLength = SIGNATURE_MESSAGE_LENGTH,
): string {
  const text = message.includes('\u001b') ? message.replace(TERMINAL_ESCAPE, '') : message;
  let normalized = '';
  let position = 0;
  while (position < text.length && normalized.length <= maxLength) {
    VARIABLE_PART.lastIndex = position;
    const match = VARIABLE_PART.exec(text);
    if (!match) {
      normalized += text[position++];
      continue;
    }
    const [, replacement] =
      VARIABLE_PARTS[match.findIndex((group, i) => i > 0 && group !== undefined) - 1];
    const placeholder = typeof replacement === 'string' ? replacement : replacement(match[0]);
    // Leading whitespace is dropped here, trailing whitespace by trimEnd.
    if (placeholder !== ' ' || normalized !== '') normalized += placeholder;
    position = VARIABLE_PART.lastIndex;
  }
  return normalized.trimEnd().slice(0, maxLength);
}

/**
 * 16 lowercase hex characters for a failed or blocked result, null for any other status.
 * Without a message, the failure type alone decides.
 */
export function failureSignature(
  status: ResultStatus,
  failureType: string | null,
  message: string | null,
): string | null {
  if (!SIGNED_STATUSES.has(status)) return null;
  // NUL keeps the type and the message apart: PostgreSQL text cannot hold it, so no stored
  // failure type contains one.
  return createHash('sha256')
    .update((failureType ?? '').trim())
    .update('\u0000')
    .update(message ? normalizeFailureMessage(message) : '')
    .digest('hex')
    .slice(0, 16);
}
