/**
 * The channel that says a run changed (its counts or its status), with `<run id> <project id>`
 * as the payload, so that a process reads the run only when someone watches it or its project.
 * The NOTIFY is sent in the transaction of the change, so it arrives only once the change
 * committed; a viewer then reads the run once per process (`RunLiveService`).
 */
export const RUN_CHANGES_CHANNEL = 'run_changes';

/** Which run changed, and its project (null from a sender that named the run alone). */
export interface RunChange {
  runId: string;
  projectId: string | null;
}

export function runChangeOf(payload: string): RunChange {
  const [runId, projectId = null] = payload.split(' ');
  return { runId, projectId };
}
