import type { ReactNode } from 'react';

/**
 * A fieldset of checkboxes, one for each of `options` (an API key's scopes, a subscription's
 * events): `chosen` are checked, and `onChange` is given the choice after each click.
 */
export function CheckboxChoices<T extends string>({
  legend,
  name,
  options,
  chosen,
  onChange,
  invalid,
  children,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  chosen: T[];
  onChange: (chosen: T[]) => void;
  invalid: boolean;
  /** How an option reads beside its box. */
  children: (option: T) => ReactNode;
}) {
  return (
    <fieldset aria-invalid={invalid || undefined}>
      <legend>{legend}</legend>
      <div className="scope-choices">
        {options.map((option) => (
          <label key={option} className="choice">
            <input
              type="checkbox"
              name={name}
              value={option}
              checked={chosen.includes(option)}
              onChange={(event) =>
                onChange(
                  event.target.checked ? [...chosen, option] : chosen.filter((o) => o !== option),
                )
              }
            />
            {children(option)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
