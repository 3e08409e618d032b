import { useQuery } from '@tanstack/react-query';
import { runComparison, type Gate } from '../api/run-insights';
import type { TestRun } from '../api/runs';
import { utcSecond } from '../../shared/formats';

type Kept = NonNullable<TestRun['gate']>;

const verdict = (passed: boolean) => (passed ? 'passed' : 'failed');
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The verdict kept from the run's last completion, beside today's: what the pipeline acted on
 * stays visible after a quarantine or a settings change turns the gate around, and a reopened
 * run (taking results again) still shows what its last completion decided.
 */
export function KeptVerdict({ run, kept, now }: { run: TestRun; kept: Kept; now: Gate }) {
  const at = `${utcSecond.format(new Date(kept.evaluated_at))} UTC`;
  const differs = kept.passed !== now.passed;
  let text: string;
  if (run.status !== 'completed') {
    text = `Reopened: when last completed (${at}) the run ${kept.passed ? 'passed' : 'failed'} the gate; that verdict stays until it completes again.`;
  } else if (!differs) {
    text = `Completed with the gate ${verdict(kept.passed)} (${at}); the same now.`;
  } else {
    text = `Completed with the gate ${verdict(kept.passed)} (${at}); ${now.passed ? 'passes' : 'fails'} now: `;
  }
  return (
    <p className="gate-kept" data-kept-gate={verdict(kept.passed)}>
      <span
        className={`badge ${kept.passed ? 'verdict-passed' : 'verdict-failed'}`}
        title="The verdict kept from the run's last completion"
      >
        {run.status === 'completed' ? 'At completion' : 'Last completion'}:{' '}
        {kept.passed ? 'Passed' : 'Failed'}
      </span>{' '}
      {text}
      {run.status === 'completed' && differs ? <WhyNow run={run} now={now} /> : null}
    </p>
  );
}

/**
 * Why a completed run's gate turned around, from the rules as they are now (the kept verdict
 * has no rules): failing rules name themselves; a gate that passes now while the run has new
 * failures passes because each of them is quarantined now.
 */
function WhyNow({ run, now }: { run: TestRun; now: Gate }) {
  const comparison = useQuery({ ...runComparison(run.id), enabled: now.passed });
  if (!now.passed) {
    const failing = now.rules.filter((rule) => !rule.passed).map((rule) => rule.detail);
    return <>{failing.join(' ')}</>;
  }
  if (!comparison.isSuccess) return <>the rules below pass with today’s quarantine and settings.</>;
  const newFailures = comparison.data.summary.new_failures;
  return (
    <>
      {newFailures > 0
        ? `${plural(newFailures, 'new failure', 'new failures')} quarantined since.`
        : 'the project’s gate settings changed since.'}
    </>
  );
}
