import { type GateFacts, gateRules } from './gate-rules.js';

const CLEAN: GateFacts = {
  unquarantinedNewFailures: 0,
  missingTests: 0,
  passed: 9,
  executed: 10,
  minPassRate: null,
  forbidMissingTests: false,
  minTests: 1,
};

const byName = (facts: Partial<GateFacts>) =>
  Object.fromEntries(gateRules({ ...CLEAN, ...facts }).map((rule) => [rule.name, rule]));

describe('the quality gate’s rules', () => {
  it('lists all four, in order, passing on a clean run', () => {
    const rules = gateRules(CLEAN);
    expect(rules.map((rule) => rule.name)).toEqual([
      'no_new_failures',
      'min_pass_rate',
      'no_missing_tests',
      'min_tests',
    ]);
    expect(rules.every((rule) => rule.passed)).toBe(true);
  });

  it('skips the pass rate without a minimum, and passes it exactly at the minimum', () => {
    expect(byName({}).min_pass_rate.detail).toMatch(/^Skipped/);
    expect(byName({ minPassRate: 0.9 }).min_pass_rate.passed).toBe(true);
    expect(byName({ minPassRate: 0.91 }).min_pass_rate.passed).toBe(false);
    expect(byName({ minPassRate: 0, executed: 0, passed: 0 }).min_pass_rate.passed).toBe(false);
  });

  it('reads missing tests only when the project forbids them', () => {
    expect(byName({ missingTests: 3 }).no_missing_tests).toMatchObject({ passed: true });
    expect(byName({ missingTests: 3, forbidMissingTests: true }).no_missing_tests).toEqual({
      name: 'no_missing_tests',
      passed: false,
      detail: '3 tests of the baseline are missing.',
    });
  });

  it('needs the project’s least executed results, so an empty run fails by default', () => {
    expect(byName({ executed: 0, passed: 0 }).min_tests).toEqual({
      name: 'min_tests',
      passed: false,
      detail: '0 executed results; the project needs at least 1.',
    });
    expect(byName({ executed: 1, passed: 1 }).min_tests).toEqual({
      name: 'min_tests',
      passed: true,
      detail: '1 executed result; the project needs at least 1.',
    });
    expect(byName({ executed: 10, minTests: 11 }).min_tests.passed).toBe(false);
    expect(byName({ executed: 0, passed: 0, minTests: 0 }).min_tests.passed).toBe(true);
  });

  it('counts new failures outside quarantine', () => {
    expect(byName({ unquarantinedNewFailures: 1 }).no_new_failures).toEqual({
      name: 'no_new_failures',
      passed: false,
      detail: '1 new failure outside quarantine.',
    });
  });
});
