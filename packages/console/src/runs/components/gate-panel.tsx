import { useQuery } from '@tanstack/react-query';
import { runGate } from '../api/run-insights';
import { LoadError, Loading } from '../../shared/components/states';

/** What each gate rule checks, as the page names it (the server's `detail` says the rest). */
const RULE_NAMES: Record<string, string> = {
  no_new_failures: 'No new failures',
  min_pass_rate: 'Minimum pass rate',
  no_missing_tests: 'No missing tests',
  min_tests: 'Minimum tests run',
};

/** The quality gate's verdict as the server gives it: passed or failed, rule by rule. */
export function GatePanel({ runId }: { runId: string }) {
  const gate = useQuery(runGate(runId));
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
      <ul className="gate-rules">
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
