import { orderByCase } from './case-order.js';

/**
 * A round is the part of a batch one set of statements handles: at most `ROUND_SIZE` results
 * (or cases). A larger batch (a JUnit report is bounded only by its size) goes in several
 * rounds of the same statements in the same transaction, so memory stays bounded whatever the
 * report's size.
 */
export const ROUND_SIZE = 10_000;

/** `values` in rounds, in their order. */
export function* inRounds<T>(values: T[]): Generator<T[]> {
  for (let i = 0; i < values.length; i += ROUND_SIZE) yield values.slice(i, i + ROUND_SIZE);
}

/**
 * Each item's slot (CONTRACT §13: its case and configuration) as one string that sorts by case,
 * then configuration: the case's id alone for none (most items: no string is made), else the
 * id, a NUL (which no id has) and the configuration, which sorts right after the id alone.
 */
export function slotKeys(
  caseIds: readonly string[],
  items: ReadonlyArray<{ configuration: string | null }>,
): string[] {
  return caseIds.map((caseId, i) => {
    const configuration = items[i].configuration;
    return configuration === null ? caseId : `${caseId}\u0000${configuration}`;
  });
}

/**
 * The indexes of the items in rounds of about `ROUND_SIZE`, in the order of their slots
 * (`slotKeys`; stable, so a slot's items keep their order and its last one becomes its current
 * result): concurrent batches into one run lock the slots they share in the same order, and no
 * slot spans two rounds.
 */
export function* roundsInSlotOrder(slots: string[]): Generator<number[]> {
  const order = orderByCase(slots);
  for (let start = 0; start < order.length;) {
    let end = Math.min(start + ROUND_SIZE, order.length);
    while (end < order.length && slots[order[end]] === slots[order[end - 1]]) end++;
    yield order.slice(start, end);
    start = end;
  }
}
