/** A node of `EXPLAIN (ANALYZE, FORMAT JSON)`'s plan. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Subplan Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** The plan's root of an `EXPLAIN (…, FORMAT JSON)` answer's `QUERY PLAN`. */
export const rootOf = (plan: unknown): PlanNode => (plan as Array<{ Plan: PlanNode }>)[0].Plan;

/** `node` and every node below it. */
export const nodesOf = (node: PlanNode): PlanNode[] => [
  node,
  ...(node.Plans ?? []).flatMap(nodesOf),
];

/**
 * The table a node reads: a month's partition (`test_result_y2026m11`) or the default one
 * (`test_result_default`) of the tables partitioned by month of run is named by its table.
 */
export function tableOf(node: PlanNode): string | undefined {
  return node['Relation Name']?.replace(
    /^(test_result|test_run_case)_(y\d{4}m\d{2}|default)$/,
    '$1',
  );
}

/** How many rows of `table` (any of its partitions) the plan read, every loop counted. */
export function rowsRead(plan: unknown, table: string): number {
  return nodesOf(rootOf(plan))
    .filter((n) => tableOf(n) === table)
    .reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0);
}
