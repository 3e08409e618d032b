import { useState, type FormEvent } from 'react';
import { ApiFailure, type Organization } from '../../shared/api/client';
import type { CreateOrganization, UpdateOrganization } from '../api/organizations';
import { FormFooter } from '../../shared/components/form-footer';
import { number } from '../../shared/formats';

export const PLAN_NAMES: Record<Organization['plan'], string> = {
  basic: 'Basic',
  pro: 'Pro',
  enterprise: 'Enterprise',
};

/** How the form sets the monthly limit: as it is (editing), the plan's, or a custom one. */
type LimitChoice = 'keep' | 'plan' | 'custom';

interface Props {
  /** The organization being edited; none when creating one. */
  editing?: Organization;
  submitLabel: string;
  pending: boolean;
  error: Error | null;
  onSubmit: (body: CreateOrganization & UpdateOrganization) => void;
}

/** An organization's name, plan and monthly call limit, for creating or editing it. */
export function OrganizationForm({ editing, submitLabel, pending, error, onSubmit }: Props) {
  const [name, setName] = useState(editing?.name ?? '');
  const [plan, setPlan] = useState<Organization['plan']>(editing?.plan ?? 'pro');
  const [limitChoice, setLimitChoice] = useState<LimitChoice>(editing ? 'keep' : 'plan');
  const [customLimit, setCustomLimit] = useState('');
  const failedField = error instanceof ApiFailure ? error.field : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateOrganization & UpdateOrganization = { name, plan };
    if (limitChoice === 'custom') body.monthly_call_limit = Number(customLimit);
    else if (limitChoice === 'plan' && editing) body.monthly_call_limit = null;
    onSubmit(body);
  };

  const choices: Array<[LimitChoice, string]> = [
    ...(editing
      ? [
          ['keep', `Keep as it is (${number.format(editing.monthly_call_limit)} calls)`] as [
            LimitChoice,
            string,
          ],
        ]
      : []),
    ['plan', 'The plan’s limit'],
    ['custom', 'A custom limit'],
  ];

  return (
    <form onSubmit={submit} className="card form" noValidate={false}>
      <label htmlFor="org-name">Name</label>
      <input
        id="org-name"
        name="name"
        required
        maxLength={255}
        value={name}
        onChange={(event) => setName(event.target.value)}
        aria-invalid={failedField === 'name' || undefined}
      />

      <label htmlFor="org-plan">Plan</label>
      <select
        id="org-plan"
        name="plan"
        value={plan}
        onChange={(event) => setPlan(event.target.value as Organization['plan'])}
      >
        {Object.entries(PLAN_NAMES).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>

      <fieldset>
        <legend>Monthly call limit</legend>
        {choices.map(([value, label]) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name="limit-choice"
              value={value}
              checked={limitChoice === value}
              onChange={() => setLimitChoice(value)}
            />
            {label}
          </label>
        ))}
        {limitChoice === 'custom' ? (
          <>
            <label htmlFor="org-limit">Calls per month</label>
            <input
              id="org-limit"
              name="monthly_call_limit"
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              required
              value={customLimit}
              onChange={(event) => setCustomLimit(event.target.value)}
              aria-invalid={failedField === 'monthly_call_limit' || undefined}
            />
          </>
        ) : null}
      </fieldset>

      <FormFooter
        call={{ error, isPending: pending }}
        action={{ label: submitLabel, pending: 'Saving…' }}
      />
    </form>
  );
}
