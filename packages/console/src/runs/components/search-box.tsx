import { useId, useState, type FormEvent } from 'react';

/** Searches the test cases' titles and automation ids: Enter or the button applies it. */
export function SearchBox({
  value,
  onSearch,
}: {
  value: string | undefined;
  onSearch: (q: string | undefined) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    onSearch(trimmed === '' ? undefined : trimmed);
  };
  return (
    <form role="search" className="filter" onSubmit={submit}>
      <label htmlFor={id}>Search</label>
      <input
        id={id}
        type="search"
        name="q"
        maxLength={255}
        placeholder="Title or automation id"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="secondary">
        Search
      </button>
      {value ? (
        <button type="button" className="secondary" onClick={() => onSearch(undefined)}>
          Clear
        </button>
      ) : null}
    </form>
  );
}
