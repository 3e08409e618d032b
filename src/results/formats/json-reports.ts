import { ApiError } from '../../common/errors/api-error.js';
import type { ResultItem } from '../result-items.js';
import { isCtrfReport, parseCtrfReport } from './ctrf-report.js';
import { isCucumberReport, parseCucumberReport } from './cucumber-report.js';
import { isJestReport, parseJestReport } from './jest-report.js';
import { isPlaywrightReport, parsePlaywrightReport } from './playwright-report.js';
import { REPORT_FORMATS, type ReportFormat, type ReportOptions } from './report-formats.js';

/** A report format read from a JSON body. */
interface JsonReportFormat {
  /** Whether a parsed document has the format's shape (CONTRACT §14's table). */
  recognises: (document: unknown) => boolean;
  /** What the shape is, for the error when `format` names it and the body is not. */
  shape: string;
  parse: (document: unknown, options: ReportOptions) => ResultItem[];
}

/** In the order they are tried: the shapes exclude one another. */
const JSON_FORMATS: Partial<Record<ReportFormat, JsonReportFormat>> = {
  playwright: {
    recognises: isPlaywrightReport,
    shape: 'an object with config and suites',
    parse: parsePlaywrightReport,
  },
  ctrf: {
    recognises: isCtrfReport,
    shape: 'an object whose results has tool and tests',
    parse: parseCtrfReport,
  },
  jest: {
    recognises: isJestReport,
    shape: 'an object with testResults',
    parse: parseJestReport,
  },
  cucumber: {
    // (An empty list is a Cucumber report only when `format` names it: nothing else tells.)
    recognises: isCucumberReport,
    shape: 'an array of features with elements',
    parse: parseCucumberReport,
  },
};

const JSON_FORMAT_NAMES = Object.keys(JSON_FORMATS) as ReportFormat[];
const XML_FORMAT_NAMES = REPORT_FORMATS.filter((format) => !JSON_FORMATS[format]);

/** What the ingest route takes, for the answer to a body it does not. */
const TAKEN =
  `the JSON command (an object whose results is an array of results), ` +
  `a JSON report (${JSON_FORMAT_NAMES.join(', ')}) or an XML report (${XML_FORMAT_NAMES.join(', ')}, sent as application/xml)`;

/**
 * The result items of a JSON report body: of the format `format` names (400 naming `body` when
 * the document has another shape), else of the format whose shape it has (400 naming `body`,
 * listing the formats taken, when none).
 */
export function parseJsonReport(
  document: unknown,
  format: ReportFormat | undefined,
  options: ReportOptions,
): ResultItem[] {
  if (format === undefined) {
    const recognised = JSON_FORMAT_NAMES.find((name) => JSON_FORMATS[name]?.recognises(document));
    if (recognised === undefined) {
      throw ApiError.invalidField(
        'body',
        `The body is not a document this service reads: send ${TAKEN}.`,
      );
    }
    return (JSON_FORMATS[recognised] as JsonReportFormat).parse(document, options);
  }
  const named = JSON_FORMATS[format];
  if (named === undefined) {
    throw ApiError.invalidField('body', `A ${format} report is XML: send it as application/xml.`);
  }
  const emptyCucumber = format === 'cucumber' && Array.isArray(document) && document.length === 0;
  if (!emptyCucumber && !named.recognises(document)) {
    throw ApiError.invalidField('body', `The body is not a ${format} report (${named.shape}).`);
  }
  return named.parse(document, options);
}
