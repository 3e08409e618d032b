import { createHash } from 'node:crypto';
import { cutText } from '../common/text.js';

/** Longest automation id (CONTRACT §13); a JSON item's longer one is refused. */
export const MAX_AUTOMATION_ID = 1000;
/** Hex characters of the SHA-256 that stand for what a long id loses. */
const HASH_CHARS = 16;
/** What is kept of a long id before `~` and the hash: 983 + 1 + 16 = 1,000. */
const KEPT = MAX_AUTOMATION_ID - 1 - HASH_CHARS;

/**
 * The automation id of a test named by a report (CONTRACT §13): as derived when it fits,
 * else its first 983 characters, `~`, and the first 16 hex characters of the SHA-256 of the
 * whole id's UTF-8, so that two long names differing only at the end stay two test cases.
 * Lengths count UTF-16 code units, as the JSON limit does; the cut never splits a surrogate
 * pair (one unit fewer is kept then), since a lone half cannot be stored.
 */
export function reportAutomationId(derived: string): string {
  if (derived.length <= MAX_AUTOMATION_ID) return derived;
  const hash = createHash('sha256').update(derived, 'utf8').digest('hex');
  return `${cutText(derived, KEPT)}~${hash.slice(0, HASH_CHARS)}`;
}
