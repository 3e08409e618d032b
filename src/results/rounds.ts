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
 * The indexes of the items in rounds of about `ROUND_SIZE`, in the order of their cases
 * (stable, so a case's items keep their order and its last one becomes its current result):
 * concurrent batches into one run lock the cases they share in the same order, and no case
 * spans two rounds.
 */
export function* roundsInCaseOrder(caseIds: string[]): Generator<number[]> {
  const order = orderByCase(caseIds);
  for (let start = 0; start < order.length;) {
    let end = Math.min(start + ROUND_SIZE, order.length);
    while (end < order.length && caseIds[order[end]] === caseIds[order[end - 1]]) end++;
    yield order.slice(start, end);
    start = end;
  }
}
