import { Link } from '@tanstack/react-router';
import type { CaseHistoryItem } from '../api/cases';
import type { ResultStatus } from '../../runs/api/runs';
import { RESULT_STATUS_NAMES } from '../../runs/components/run-counts';
import { utcMinute } from '../../shared/formats';

/** A mark per status, so the strip does not speak by colour alone. */
const MARKS: Record<ResultStatus, string> = {
  passed: '✓',
  failed: '✗',
  blocked: '!',
  skipped: '–',
  retest: '↻',
  untested: '?',
};

/** When a result ran: its `executed_at`, else when it was stored (the history's order). */
export function resultTime(result: CaseHistoryItem): string {
  return result.executed_at ?? result.created_at;
}

/**
 * A case's results as a row of cells, oldest first (`results` come newest first): each cell
 * is its status's colour and mark, and a link to its run named with the status in words.
 */
export function StatusStrip({
  results,
  label = 'Statuses, oldest first',
}: {
  results: CaseHistoryItem[];
  label?: string;
}) {
  const oldestFirst = [...results].reverse();
  return (
    <ol className="strip" aria-label={label}>
      {oldestFirst.map((result) => {
        const where = result.configuration === null ? '' : ` (${result.configuration})`;
        const label = `${result.test_run_name}${where}: ${RESULT_STATUS_NAMES[result.status]}, ${utcMinute.format(new Date(resultTime(result)))} UTC`;
        return (
          <li key={result.id} className={`cell cell-${result.status}`} data-status={result.status}>
            <Link
              to="/runs/$runId"
              params={{ runId: result.test_run_id }}
              aria-label={label}
              title={label}
            >
              <span aria-hidden="true">{MARKS[result.status]}</span>
            </Link>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The strip, one per configuration when the results name any (by name, none last): a case
 * failing in firefox and passing in chromium is two steady rows, not one that flips.
 */
export function ConfigurationStrips({ results }: { results: CaseHistoryItem[] }) {
  if (results.every((r) => r.configuration === null)) return <StatusStrip results={results} />;
  const names = [...new Set(results.map((r) => r.configuration))].sort((a, b) =>
    a === null ? 1 : b === null ? -1 : a.localeCompare(b),
  );
  return (
    <div className="strip-groups">
      {names.map((name) => {
        const shown = name ?? 'No configuration';
        return (
          <div key={name ?? ''} className="strip-group" data-configuration={name ?? ''}>
            <h4>{shown}</h4>
            <StatusStrip
              results={results.filter((r) => r.configuration === name)}
              label={`Statuses ${name === null ? 'without a configuration' : `in ${name}`}, oldest first`}
            />
          </div>
        );
      })}
    </div>
  );
}

/** The strip's key: each status's mark and name, for those that occur. */
export function StripLegend({ results }: { results: CaseHistoryItem[] }) {
  const present = (Object.keys(MARKS) as ResultStatus[]).filter((status) =>
    results.some((r) => r.status === status),
  );
  return (
    <ul className="strip-legend" aria-label="Key">
      {present.map((status) => (
        <li key={status}>
          <span className={`cell cell-${status}`} aria-hidden="true">
            {MARKS[status]}
          </span>{' '}
          {RESULT_STATUS_NAMES[status]}
        </li>
      ))}
    </ul>
  );
}
