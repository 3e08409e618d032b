import { useId } from 'react';

/** A select of statuses ("All" first) that names the one shown; changing it calls `onChange`. */
export function StatusFilter<S extends string>({
  label,
  value,
  names,
  onChange,
}: {
  label: string;
  value: S | undefined;
  names: Record<S, string>;
  onChange: (status: S | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="filter">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : (e.target.value as S))}
      >
        <option value="">All</option>
        {(Object.keys(names) as S[]).map((s) => (
          <option key={s} value={s}>
            {names[s]}
          </option>
        ))}
      </select>
    </div>
  );
}
