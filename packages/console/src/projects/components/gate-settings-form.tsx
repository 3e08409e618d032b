import { useState, type FormEvent } from 'react';
import { ApiFailure } from '../../shared/api/client';
import { FormFooter } from '../../shared/components/form-footer';
import type { GateSettings, UpdateGateSettings, useUpdateGateSettings } from '../api/projects';

/** A rate (0–1) as the percentage the form shows, without float noise (0.95 → "95"). */
function percentOf(rate: number | null): string {
  return rate === null ? '' : String(Math.round(rate * 10_000) / 100);
}

/**
 * A field's text as the number it says, or the text itself, which the service then refuses in
 * its own words (the form judges no value).
 */
function numberOr(text: string, toValue: (n: number) => number): number {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? toValue(n) : (text as unknown as number);
}

/**
 * The quality gate's settings: the least pass rate (empty: none), the least number of executed
 * results, and whether a test missing from the baseline fails the gate. Only what changed is
 * sent; the ranges are the service's rule and its refusal shows here.
 */
export function GateSettingsForm({
  saved,
  update,
}: {
  saved: GateSettings;
  update: ReturnType<typeof useUpdateGateSettings>;
}) {
  const [passRate, setPassRate] = useState(percentOf(saved.gate_min_pass_rate));
  const [minTests, setMinTests] = useState(String(saved.gate_min_tests));
  const [forbidMissing, setForbidMissing] = useState(saved.gate_forbid_missing_tests);
  const failedField = update.error instanceof ApiFailure ? update.error.field : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: UpdateGateSettings = {};
    if (passRate !== percentOf(saved.gate_min_pass_rate)) {
      // Sent as the service takes it: a share of 1.
      changes.gate_min_pass_rate =
        passRate.trim() === '' ? null : numberOr(passRate, (n) => Math.round(n * 100) / 10_000);
    }
    if (minTests !== String(saved.gate_min_tests)) {
      changes.gate_min_tests = numberOr(minTests, (n) => n);
    }
    if (forbidMissing !== saved.gate_forbid_missing_tests) {
      changes.gate_forbid_missing_tests = forbidMissing;
    }
    update.mutate(changes);
  };

  return (
    <form onSubmit={submit} className="card form" aria-labelledby="gate-settings-title">
      <label htmlFor="gate-min-pass-rate">Minimum pass rate (%)</label>
      <input
        id="gate-min-pass-rate"
        name="gate_min_pass_rate"
        inputMode="decimal"
        value={passRate}
        onChange={(event) => setPassRate(event.target.value)}
        aria-invalid={failedField === 'gate_min_pass_rate' || undefined}
        aria-describedby="gate-min-pass-rate-hint"
      />
      <p id="gate-min-pass-rate-hint" className="muted hint">
        Passed results among the executed ones a run needs. Leave empty for no minimum.
      </p>
      <label htmlFor="gate-min-tests">Minimum executed tests</label>
      <input
        id="gate-min-tests"
        name="gate_min_tests"
        inputMode="numeric"
        required
        value={minTests}
        onChange={(event) => setMinTests(event.target.value)}
        aria-invalid={failedField === 'gate_min_tests' || undefined}
        aria-describedby="gate-min-tests-hint"
      />
      <p id="gate-min-tests-hint" className="muted hint">
        Executed results a run needs; 0 lets a run in which nothing ran pass.
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          name="gate_forbid_missing_tests"
          checked={forbidMissing}
          onChange={(event) => setForbidMissing(event.target.checked)}
        />{' '}
        A test of the baseline missing from the run fails the gate
      </label>
      <FormFooter call={update} action={{ label: 'Save gate settings', pending: 'Saving…' }} />
      {update.isSuccess ? (
        <p role="status" className="muted">
          Saved.
        </p>
      ) : null}
    </form>
  );
}
