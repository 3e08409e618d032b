import { useId, useState, type FormEvent } from 'react';

/**
 * A search box of 2–255 characters: Enter or the button asks for it (`onSearch`, trimmed).
 * `label` names the field; `hint` says what it searches.
 */
export function SearchForm({
  label,
  hint,
  value,
  onSearch,
}: {
  label: string;
  hint: string;
  value: string | undefined;
  onSearch: (q: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim().length >= 2) onSearch(text.trim());
  };
  return (
    <form role="search" className="filters search-page-form" onSubmit={submit}>
      <div className="filter">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type="search"
          name="q"
          minLength={2}
          maxLength={255}
          required
          aria-describedby={`${id}-hint`}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <button type="submit">Search</button>
      <p id={`${id}-hint`} className="hint">
        {hint}
      </p>
    </form>
  );
}
