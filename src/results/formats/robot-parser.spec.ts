import {
  fixture,
  idsAndStatuses,
  NO_OPTIONS,
  refusal,
} from '../../../test/support/report-fixtures.js';
import { elapsedBetween, parseRobotReport } from './robot-parser.js';

describe('parseRobotReport', () => {
  it("reads RF 7: long names through nested suites, the test's own status and message", () => {
    const items = parseRobotReport(fixture('robot/rf7-output.xml'), NO_OPTIONS);
    expect(idsAndStatuses(items)).toEqual([
      ['Acceptance.Checkout.Pay With Card', 'passed'],
      ['Acceptance.Checkout.Pay With Voucher', 'failed'],
      ['Acceptance.Checkout.Pay In Ünïcödé €', 'skipped'],
      ['Acceptance.Search.Filters.Filter By Price', 'passed'],
      ['Acceptance.Search.Filters.Filter By Brand', 'untested'],
    ]);
    expect(items[1]).toMatchObject({
      title: 'Pay With Voucher',
      section: 'Acceptance.Checkout',
      durationMs: 105,
      // The test's status, not its failing keyword's.
      message: 'Voucher total: 12.50 != 0.00',
      failureType: null,
      stackTrace: null,
    });
    expect(items[0].durationMs).toBe(1234);
  });

  it('reads RF 5 (schema 3) and RF 3 outputs, durations from start and end times', () => {
    const rf5 = parseRobotReport(fixture('robot/rf5-output.xml'), NO_OPTIONS);
    expect(idsAndStatuses(rf5)).toEqual([
      ['Api.Users.Create User', 'passed'],
      ['Api.Users.Delete Missing User', 'failed'],
      ['Api.Users.Rename User', 'skipped'],
    ]);
    expect(rf5.map((item) => item.durationMs)).toEqual([180, 90, 4]);
    const rf3 = parseRobotReport(fixture('robot/rf3-output.xml'), NO_OPTIONS);
    expect(idsAndStatuses(rf3)).toEqual([
      ['Legacy.Login.Valid Login', 'passed'],
      ['Legacy.Login.Invalid Password Shows Error', 'failed'],
    ]);
    expect(rf3[1]).toMatchObject({
      durationMs: 1250,
      message: "Page should have contained text 'Mot de passe erroné' but did not.",
    });
  });

  it('reads RF 4 (schema 2: IF branches) and RF 6 (schema 4: a suite setup, FOR iterations) outputs', () => {
    const rf4 = parseRobotReport(fixture('robot/rf4-output.xml'), NO_OPTIONS);
    expect(idsAndStatuses(rf4)).toEqual([
      ['Regression.Accounts.Open Account For Zoë', 'passed'],
      ['Regression.Accounts.Close Account With Balance', 'failed'],
      ['Regression.Accounts.Freeze Account', 'skipped'],
    ]);
    expect(rf4[1]).toMatchObject({
      durationMs: 100,
      message: 'AccountError: account ACC-1042 has a balance of 12.50',
    });
    expect(rf4[2].message).toBe('Freezing needs the fraud service');
    const rf6 = parseRobotReport(fixture('robot/rf6-output.xml'), NO_OPTIONS);
    expect(idsAndStatuses(rf6)).toEqual([
      ['Shop.Cart.Add Item To Cart', 'passed'],
      ['Shop.Cart.Apply Expired Coupon', 'failed'],
      ['Shop.Cart.Pay With Gift Card', 'skipped'],
    ]);
    expect(rf6.map((item) => item.durationMs)).toEqual([175, 120, 4]);
    expect(rf6[1].message).toBe('Expected total 90.00 but was 100.00');
  });

  it('refuses a test without a status, or with one Robot does not write', () => {
    const wrap = (test: string) => `<robot><suite name="S">${test}</suite></robot>`;
    expect(refusal(() => parseRobotReport(wrap('<test name="T"/>'), NO_OPTIONS)).message).toMatch(
      /"S\.T" has no <status>/,
    );
    const odd = wrap('<test name="T"><status status="MAYBE"/></test>');
    const error = refusal(() => parseRobotReport(odd, NO_OPTIONS));
    expect(error.details.field).toBe('body');
    expect(error.message).toMatch(/"S\.T" has the status "MAYBE"/);
  });

  it('reads RF 3–6 timestamps, and no duration from N/A', () => {
    expect(elapsedBetween('20240131 23:59:59.500', '20240201 00:00:00.750')).toBe(1250);
    expect(elapsedBetween('20240131 12:00:00', '20240131 12:00:01.5')).toBe(1500);
    expect(elapsedBetween('N/A', 'N/A')).toBeNull();
  });

  it('does not take path_root to its names: suite sources are not part of them', () => {
    const options = { configuration: null, pathRoot: '/home/runner/work/shop/shop/' };
    const withRoot = parseRobotReport(fixture('robot/rf7-output.xml'), options);
    const without = parseRobotReport(fixture('robot/rf7-output.xml'), NO_OPTIONS);
    expect(withRoot.map((item) => item.automationId)).toEqual(
      without.map((item) => item.automationId),
    );
  });
});
