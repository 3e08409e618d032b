import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { runConfigurations } from '../api/runs';
import { number } from '../../shared/formats';

/* Option values: a configuration's name follows a prefix, so no name can be taken for "all". */
const ALL = 'all';
const NONE = 'none';
const NAMED = 'named:';

/**
 * A select of the run's configurations ("All" first, "No configuration" last when some results
 * have none), each with its count of current results. `value` is as the API takes it ('': the
 * results without one). Not shown for a run whose results name no configuration, unless one is
 * chosen (from a link, say).
 */
export function ConfigurationFilter({
  runId,
  value,
  onChange,
}: {
  runId: string;
  value: string | undefined;
  onChange: (configuration: string | undefined) => void;
}) {
  const id = useId();
  const configurations = useQuery(runConfigurations(runId));
  const listed = configurations.data?.data ?? [];
  const named = listed.filter((c) => c.configuration !== null);
  if (named.length === 0 && value === undefined) return null;
  const none = listed.find((c) => c.configuration === null);
  const selected = value === undefined ? ALL : value === '' ? NONE : `${NAMED}${value}`;
  return (
    <div className="filter">
      <label htmlFor={id}>Configuration</label>
      <select
        id={id}
        value={selected}
        onChange={(e) => {
          const next = e.target.value;
          onChange(next === ALL ? undefined : next === NONE ? '' : next.slice(NAMED.length));
        }}
      >
        <option value={ALL}>All</option>
        {named.map((c) => (
          <option key={c.configuration} value={`${NAMED}${c.configuration}`}>
            {c.configuration} ({number.format(c.results)})
          </option>
        ))}
        {value !== undefined && value !== '' && !named.some((c) => c.configuration === value) ? (
          <option value={selected}>{value} (0)</option>
        ) : null}
        {none || value === '' ? (
          <option value={NONE}>No configuration ({number.format(none?.results ?? 0)})</option>
        ) : null}
      </select>
    </div>
  );
}
