import { useId } from 'react';
import type { RunSeries, Series } from '../api/overview';
import { seriesName } from './trends-section';

/** A series as a select's value: its name and branch, which neither a name nor a branch holds. */
const valueOf = (series: Series) => JSON.stringify([series.name, series.branch ?? null]);

/**
 * Which run name and branch the trends, the recurring failures and the changes follow: the
 * series the service lists, the most recently run first.
 */
export function SeriesChoice({
  series,
  value,
  onChange,
}: {
  series: RunSeries[];
  value: Series;
  onChange: (series: Series) => void;
}) {
  const id = useId();
  const options: Series[] = series.map((s) =>
    s.branch === null ? { name: s.name } : { name: s.name, branch: s.branch },
  );
  if (!options.some((s) => valueOf(s) === valueOf(value))) options.unshift(value);
  return (
    <div className="filter">
      <label htmlFor={id}>Runs of</label>
      <select
        id={id}
        value={valueOf(value)}
        onChange={(e) => {
          const [name, branch] = JSON.parse(e.target.value) as [string, string | null];
          onChange(branch === null ? { name } : { name, branch });
        }}
      >
        {options.map((s) => (
          <option key={valueOf(s)} value={valueOf(s)}>
            {seriesName(s)}
          </option>
        ))}
      </select>
    </div>
  );
}
