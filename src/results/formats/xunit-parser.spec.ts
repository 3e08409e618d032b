import {
  fixture,
  idsAndStatuses,
  NO_OPTIONS,
  refusal,
} from '../../../test/support/report-fixtures.js';
import { parseXunitReport } from './xunit-parser.js';

describe('parseXunitReport', () => {
  it('reads a v2 report: names with theory rows apart, exception types, skip reasons, NotRun', () => {
    const items = parseXunitReport(fixture('xunit/xunit-v2.xml'), NO_OPTIONS);
    expect(idsAndStatuses(items)).toEqual([
      ['Geo.Tests.DistanceTests.Haversine(from: "Zürich", to: "Genève", km: 224)', 'passed'],
      ['Geo.Tests.DistanceTests.Haversine(from: "東京", to: "大阪", km: 397)', 'failed'],
      ['Geo.Tests.DistanceTests.Bearing_IsNormalised', 'failed'],
      ['Geo.Tests.DistanceTests.Origin_IsZero', 'passed'],
      ['Geo.Tests.Parsing.CoordinateParserTests.Parses_Degrees', 'passed'],
      ['Geo.Tests.Parsing.CoordinateParserTests.Parses_DMS', 'skipped'],
      ['Geo.Tests.Parsing.CoordinateParserTests.Parses_Geohash', 'untested'],
    ]);
    expect(items[1]).toMatchObject({
      title: 'Haversine(from: "東京", to: "大阪", km: 397)',
      section: 'Geo.Tests.DistanceTests',
      durationMs: 10,
      message: 'Assert.Equal() Failure: Values differ\nExpected: 397\nActual:   403',
      failureType: 'Xunit.Sdk.EqualException',
      stackTrace: expect.stringMatching(/^at Geo\.Tests\.DistanceTests\.Haversine/),
    });
    expect(items[2]).toMatchObject({ failureType: 'System.TimeoutException', stackTrace: null });
    expect(items[5].message).toBe('DMS parsing is not implemented yet');
  });

  it('reads every assembly of a report, and leaves assembly errors out', () => {
    const items = parseXunitReport(fixture('xunit/xunit-v2-two-assemblies.xml'), NO_OPTIONS);
    expect(idsAndStatuses(items)).toEqual([
      ['Billing.Tests.InvoiceTests.Total_SumsLines', 'passed'],
      ['Billing.Tests.InvoiceTests.Vat(rate: 0.19)', 'passed'],
      ['Billing.Tests.InvoiceTests.Vat(rate: 0.07)', 'failed'],
      ['Billing.Integration.PaymentGatewayTests.Charges_Card', 'skipped'],
    ]);
    const fromErrors = parseXunitReport(fixture('xunit/xunit-v2.xml'), NO_OPTIONS).filter(
      (item) => item.failureType === 'System.IO.IOException',
    );
    expect(fromErrors).toEqual([]);
  });

  it('refuses a result xUnit.net does not write', () => {
    const xml = `<assemblies><assembly><collection><test name="A.b" type="A" result="Maybe"/></collection></assembly></assemblies>`;
    const error = refusal(() => parseXunitReport(xml, NO_OPTIONS));
    expect(error.details.field).toBe('body');
    expect(error.message).toMatch(/"A\.b" has the result "Maybe"/);
  });

  it('keeps a name that does not start with its type whole as the title', () => {
    const xml = `<assemblies><assembly><collection><test name="Custom display name" type="A.B" result="Pass" time="0.5"/></collection></assembly></assemblies>`;
    expect(parseXunitReport(xml, NO_OPTIONS)[0]).toMatchObject({
      automationId: 'Custom display name',
      title: 'Custom display name',
      section: 'A.B',
      durationMs: 500,
    });
  });
});
