/** The statuses of an execution result (SPEC), in the order the counts list them. */
export const RESULT_STATUSES = [
  'passed',
  'failed',
  'blocked',
  'skipped',
  'retest',
  'untested',
] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];
