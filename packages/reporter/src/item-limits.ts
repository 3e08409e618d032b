import { sha256 } from './keys.js';

/**
 * The limits of a result item's texts (CONTRACT §6, §13), for the items the reporter derives
 * itself from a report (an Allure folder): the service refuses a longer text in a JSON item,
 * so a long one is cut, and a long name shortened as §13 shortens ids derived from a report.
 */
export const ITEM_LIMITS = {
  automationId: 1000,
  title: 1000,
  section: 1000,
  message: 65_535,
  failureType: 1000,
  stackTrace: 65_536,
  configuration: 100,
} as const;

/** Hex characters of the SHA-256 that stand for what a shortened name loses. */
const HASH_CHARS = 16;

/** The first `max` UTF-16 units of `text`, one fewer rather than half a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * A name within `max`: as it is when it fits, else its beginning, `~` and the first 16 hex
 * characters of the SHA-256 of the whole, so two long names that differ only at the end stay
 * two (CONTRACT §13: an id of 1,000 keeps 983 characters).
 */
export function shortened(name: string, max: number): string {
  if (name.length <= max) return name;
  return `${cutText(name, max - 1 - HASH_CHARS)}~${sha256(name).slice(0, HASH_CHARS)}`;
}
