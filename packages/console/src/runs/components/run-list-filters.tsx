import { useId, useState, type FormEvent } from 'react';
import type { RunListView } from '../run-list-view';

/**
 * The runs list's filters besides the status: run name, branch (both exact) and a range of
 * creation days; Apply (or Enter) puts them in the URL, Clear removes them.
 */
export function RunListFilters({
  view,
  onApply,
}: {
  view: RunListView;
  onApply: (filters: Pick<RunListView, 'name' | 'branch' | 'from' | 'to'>) => void;
}) {
  const id = useId();
  const [name, setName] = useState(view.name ?? '');
  const [branch, setBranch] = useState(view.branch ?? '');
  const [from, setFrom] = useState(view.from ?? '');
  const [to, setTo] = useState(view.to ?? '');
  const given = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ name: given(name), branch: given(branch), from: given(from), to: given(to) });
  };
  const filtered = [view.name, view.branch, view.from, view.to].some((v) => v !== undefined);
  return (
    <form className="filters run-filters" aria-label="Filter runs" onSubmit={submit}>
      <div className="filter">
        <label htmlFor={`${id}-name`}>Run name</label>
        <input
          id={`${id}-name`}
          maxLength={255}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="filter">
        <label htmlFor={`${id}-branch`}>Branch</label>
        <input
          id={`${id}-branch`}
          maxLength={255}
          value={branch}
          onChange={(e) => setBranch(e.target.value)}
        />
      </div>
      <div className="filter">
        <label htmlFor={`${id}-from`}>From</label>
        <input
          id={`${id}-from`}
          type="date"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
      </div>
      <div className="filter">
        <label htmlFor={`${id}-to`}>To</label>
        <input id={`${id}-to`} type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <button type="submit" className="secondary">
        Apply filters
      </button>
      {filtered ? (
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setName('');
            setBranch('');
            setFrom('');
            setTo('');
            onApply({});
          }}
        >
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
