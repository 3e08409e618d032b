/** Code-unit order: the same in every process, whatever the database's collation. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The indexes of `caseIds` in the order of their case ids (code units, which for lowercase
 * UUIDs is also PostgreSQL's order of the uuid values), ties in index order: the order in
 * which a batch locks its cases, the same in every process, and the order of the indexes
 * on (run, case), which then take a batch's rows page after page. Lowercase UUIDs are
 * compared as three numbers (48, 32 and 48 bits) instead of as strings, several times
 * faster for a 20,000-result report.
 */
export function orderByCase(caseIds: readonly string[]): number[] {
  const n = caseIds.length;
  const order = Array.from({ length: n }, (_, i) => i);
  if (!caseIds.every((id) => UUID.test(id))) {
    return order.sort((a, b) => compare(caseIds[a], caseIds[b]) || a - b);
  }
  const first = new Float64Array(n);
  const middle = new Float64Array(n);
  const last = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const id = caseIds[i];
    first[i] = parseInt(id.slice(0, 8), 16) * 0x10000 + parseInt(id.slice(9, 13), 16);
    middle[i] = parseInt(id.slice(14, 18), 16) * 0x10000 + parseInt(id.slice(19, 23), 16);
    last[i] = parseInt(id.slice(24, 36), 16);
  }
  return order.sort(
    (a, b) => first[a] - first[b] || middle[a] - middle[b] || last[a] - last[b] || a - b,
  );
}
