/** Code-unit order: the same in every process, whatever the database's collation. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The indexes of `caseIds` in the order of their case ids (code units, which for lowercase
 * UUIDs is also PostgreSQL's order of uuid values), ties in index order: the order in which
 * a batch locks its cases, the same in every process, and the order of the indexes on
 * (run, case), which then take a batch's rows page after page.
 */
export function orderByCase(caseIds: readonly string[]): number[] {
  return Array.from(caseIds, (_, i) => i).sort((a, b) => {
    const x = caseIds[a];
    const y = caseIds[b];
    return x < y ? -1 : x > y ? 1 : a - b;
  });
}
