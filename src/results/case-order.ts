/**
 * The indexes of `caseIds` in the order of their case ids (code units: the same in every
 * process whatever the database's collation, and for lowercase UUIDs also PostgreSQL's order
 * of uuid values), ties in index order. It is the order in which a batch locks its cases, so
 * concurrent batches sharing cases lock them alike, and the order of the indexes on (run,
 * case), which then take a batch's rows page after page.
 */
export function orderByCase(caseIds: readonly string[]): number[] {
  return Array.from(caseIds, (_, i) => i).sort((a, b) => {
    const x = caseIds[a];
    const y = caseIds[b];
    return x < y ? -1 : x > y ? 1 : a - b;
  });
}
