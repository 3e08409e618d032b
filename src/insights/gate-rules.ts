import type { GateRuleResponse } from './dto/gate.dto.js';

/** What the quality gate's rules read of a run, its project and its comparison. */
export interface GateFacts {
  /** New failures of cases without an active quarantine entry. */
  unquarantinedNewFailures: number;
  missingTests: number;
  passed: number;
  /** Every current result but the untested ones. */
  executed: number;
  minPassRate: number | null;
  forbidMissingTests: boolean;
  /** The least `executed` the project asks of a run (0: any run passes). */
  minTests: number;
}

const percent = (rate: number) => `${Number((rate * 100).toFixed(2))}%`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function noNewFailures(facts: GateFacts): GateRuleResponse {
  const n = facts.unquarantinedNewFailures;
  return {
    name: 'no_new_failures',
    passed: n === 0,
    detail:
      n === 0
        ? 'No new failures outside quarantine.'
        : `${plural(n, 'new failure', 'new failures')} outside quarantine.`,
  };
}

function minPassRate(facts: GateFacts): GateRuleResponse {
  const name = 'min_pass_rate';
  const minimum = facts.minPassRate;
  if (minimum === null)
    return { name, passed: true, detail: 'Skipped: the project sets no minimum pass rate.' };
  if (facts.executed === 0)
    return {
      name,
      passed: false,
      detail: `No executed results: the pass rate cannot reach the minimum of ${percent(minimum)}.`,
    };
  const rate = facts.passed / facts.executed;
  const passed = rate >= minimum;
  return {
    name,
    passed,
    detail: `Pass rate ${percent(rate)} (${facts.passed} of ${facts.executed} executed) ${
      passed ? 'meets' : 'is below'
    } the minimum of ${percent(minimum)}.`,
  };
}

function noMissingTests(facts: GateFacts): GateRuleResponse {
  const name = 'no_missing_tests';
  if (!facts.forbidMissingTests)
    return { name, passed: true, detail: 'Not required: the project allows missing tests.' };
  const n = facts.missingTests;
  return {
    name,
    passed: n === 0,
    detail:
      n === 0
        ? 'No test of the baseline is missing.'
        : `${plural(n, 'test', 'tests')} of the baseline ${n === 1 ? 'is' : 'are'} missing.`,
  };
}

// Executed results, not test cases: once results count slots (CONTRACT §13), a case run in
// two configurations counts twice, as the run's counts do.
function minTests(facts: GateFacts): GateRuleResponse {
  const { executed, minTests: minimum } = facts;
  const passed = executed >= minimum;
  return {
    name: 'min_tests',
    passed,
    detail: `${plural(executed, 'executed result', 'executed results')}; the project needs at least ${minimum}.`,
  };
}

/** The gate's rules, always all four and in this order (CONTRACT §12). */
export function gateRules(facts: GateFacts): GateRuleResponse[] {
  return [noNewFailures(facts), minPassRate(facts), noMissingTests(facts), minTests(facts)];
}
