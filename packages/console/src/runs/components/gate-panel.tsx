import { useQuery } from '@tanstack/react-query';
import { runGate } from '../api/run-insights';
import type { TestRun } from '../api/runs';
import { LoadError, Loading } from '../../shared/components/states';
import { utcSecond } from '../../shared/formats';
import { KeptVerdict } from './kept-verdict';

/** What each gate rule checks, as the page names it (the server's `detail` says the rest). */
const RULE_NAMES: Record<string, string> = {
  no_new_failures: 'No new failures',
  min_pass_rate: 'Minimum pass rate',
  no_missing_tests: 'No missing tests',
  min_tests: 'Minimum tests run',
};

/**
 * The quality gate's verdict as the server evaluates it now (today's quarantine and settings),
 * rule by rule, and beside it the verdict kept from the run's last completion, the one its
 * pipeline acted on, when there is one.
 */
export function GatePanel({ run }: { run: TestRun }) {
  const gate = useQuery(runGate(run.id));
  if (gate.isPending) return <Loading what="the quality gate" />;
  if (gate.isError) return <LoadError error={gate.error} onRetry={() => void gate.refetch()} />;
  const { passed, rules } = gate.data;
  return (
    <section
      className={`card gate ${passed ? 'gate-passed' : 'gate-failed'}`}
      aria-labelledby="gate-title"
    >
      <h2 id="gate-title">
        Quality gate{' '}
        <span
          className={`badge ${passed ? 'verdict-passed' : 'verdict-failed'}`}
          data-gate={passed ? 'passed' : 'failed'}
        >
          {passed ? 'Passed' : 'Failed'}
        </span>
      </h2>
      {run.gate ? <KeptVerdict run={run} kept={run.gate} now={gate.data} /> : null}
      <ul
        className="gate-rules"
        aria-label={`Rules, evaluated ${utcSecond.format(new Date(gate.data.evaluated_at))} UTC`}
      >
        {rules.map((rule) => (
          <li key={rule.name} className={rule.passed ? 'rule-passed' : 'rule-failed'}>
            <span aria-hidden="true">{rule.passed ? '✓' : '✗'}</span>{' '}
            <strong>{RULE_NAMES[rule.name] ?? rule.name}</strong>
            <span className="visually-hidden">{rule.passed ? ' (passed)' : ' (failed)'}</span>:{' '}
            {rule.detail}
          </li>
        ))}
      </ul>
    </section>
  );
}
