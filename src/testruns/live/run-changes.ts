import { preparedSql } from '../../database/sql.js';

/**
 * The channel that says a run changed (its counts or its status), with the run's id as the
 * payload. The NOTIFY is sent in the transaction of the change, so it arrives only once the
 * change committed; a viewer then reads the run once per process (`RunLiveService`).
 */
export const RUN_CHANGES_CHANNEL = 'run_changes';

/** The NOTIFY of `RUN_CHANGES_CHANNEL` for run $1, for changes that send no other statement. */
export const NOTIFY_RUN_CHANGED = preparedSql(
  'testRuns.notifyChanged',
  `SELECT pg_notify('${RUN_CHANGES_CHANNEL}', $1::text)`,
);
