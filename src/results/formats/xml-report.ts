import { ApiError } from '../../common/errors/api-error.js';
import { parseJunitReport } from '../junit/junit-parser.js';
import type { ResultItem } from '../result-items.js';
import { parseNunitReport } from './nunit-parser.js';
import type { ReportFormat, ReportOptions } from './report-formats.js';
import { parseRobotReport } from './robot-parser.js';
import { parseTrxReport } from './trx-parser.js';
import { streamXml } from './xml-stream.js';
import { parseXunitReport } from './xunit-parser.js';

type XmlFormat = 'junit' | 'trx' | 'nunit' | 'xunit' | 'robot';

/** Each XML format's parser, and the root elements that tell it (CONTRACT §14). */
const XML_FORMATS: Record<
  XmlFormat,
  { roots: string[]; shape: string; parse: (xml: string, options: ReportOptions) => ResultItem[] }
> = {
  junit: {
    roots: ['testsuites', 'testsuite'],
    shape: 'JUnit <testsuites> or <testsuite>',
    parse: (xml, options) => parseJunitReport(xml, options.configuration),
  },
  trx: { roots: ['TestRun'], shape: 'VSTest TRX <TestRun>', parse: parseTrxReport },
  nunit: { roots: ['test-run'], shape: 'NUnit 3 <test-run>', parse: parseNunitReport },
  xunit: { roots: ['assemblies'], shape: 'xUnit.net v2 <assemblies>', parse: parseXunitReport },
  robot: { roots: ['robot'], shape: 'Robot Framework <robot>', parse: parseRobotReport },
};

const FORMAT_OF_ROOT = new Map<string, XmlFormat>(
  Object.entries(XML_FORMATS).flatMap(([format, { roots }]) =>
    roots.map((root) => [root, format as XmlFormat]),
  ),
);

/** The reports taken, for the message that refuses any other document. */
const TAKEN =
  'This service reads, as XML: ' +
  Object.values(XML_FORMATS)
    .map(({ shape }) => shape)
    .join(', ') +
  '; as JSON: the results command (an object with `results`), Playwright, CTRF, Jest/Vitest and Cucumber reports.';

/**
 * The result items of an XML report body (CONTRACT §14): its format recognised from its root
 * element, or named by the query's `format` (a document of another shape is then 400 naming
 * `body`). Any other document is 400 naming `body`, listing the formats taken. The root is
 * peeked at without parsing, so the document is parsed once, by its format's parser.
 */
export function parseXmlReport(
  xml: string,
  format: ReportFormat | undefined,
  options: ReportOptions,
): ResultItem[] {
  const root = rootElementOf(xml);
  if (root === null) throw notAReport(xml);
  const recognised = FORMAT_OF_ROOT.get(localName(root));
  if (format !== undefined) {
    if (!isXmlFormat(format)) {
      throw ApiError.invalidField(
        'body',
        `format=${format} names a JSON report, but the body is XML: send it as application/json.`,
      );
    }
    if (recognised !== format) {
      throw ApiError.invalidField(
        'body',
        `format=${format} is a ${XML_FORMATS[format].shape} document, but the body's root element is <${root}>.`,
      );
    }
  }
  if (recognised === undefined) {
    throw ApiError.invalidField(
      'body',
      `The body is not a report this service reads: its root element is <${root}>. ${TAKEN}`,
    );
  }
  return XML_FORMATS[recognised].parse(xml, options);
}

function isXmlFormat(format: ReportFormat): format is XmlFormat {
  return Object.hasOwn(XML_FORMATS, format);
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/**
 * The first element's name, read from the front of the document: past a byte-order mark,
 * whitespace, the XML declaration and other processing instructions, comments and a
 * DOCTYPE. Null when the document does not start as XML does (or is empty).
 */
export function rootElementOf(xml: string): string | null {
  let at = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < xml.length && isSpace(xml.charCodeAt(at))) at++;
    if (xml.startsWith('<?', at)) at = after(xml, '?>', at);
    else if (xml.startsWith('<!--', at)) at = after(xml, '-->', at);
    else if (xml.startsWith('<!DOCTYPE', at)) at = afterDoctype(xml, at);
    else break;
    if (at < 0) return null;
  }
  if (xml[at] !== '<') return null;
  const name = ELEMENT_NAME.exec(xml.slice(at + 1, at + 1 + MAX_NAME));
  return name ? name[0] : null;
}

/** Long enough for any format's root name with a prefix; a longer one is no root we take. */
const MAX_NAME = 200;
const ELEMENT_NAME = /^[^\s/>!?<]+/;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function after(xml: string, end: string, from: number): number {
  const at = xml.indexOf(end, from);
  return at < 0 ? -1 : at + end.length;
}

/** A DOCTYPE ends at its `>`, after its internal subset (`[ … ]`) when it has one. */
function afterDoctype(xml: string, from: number): number {
  const close = xml.indexOf('>', from);
  const subset = xml.indexOf('[', from);
  if (subset >= 0 && (close < 0 || subset < close)) {
    const end = xml.indexOf(']', subset);
    return end < 0 ? -1 : after(xml, '>', end);
  }
  return close < 0 ? -1 : close + 1;
}

/**
 * A body that does not start with an element: empty, or not well-formed XML (the parser says
 * where), else of no shape taken.
 */
function notAReport(xml: string): ApiError {
  if (xml.replace(/^\uFEFF/, '').trim() === '') {
    return ApiError.invalidField('body', `The body is empty. ${TAKEN}`);
  }
  try {
    streamXml(xml, 'XML', null, { open() {}, close() {}, text() {} });
  } catch (error) {
    if (error instanceof ApiError && /not well-formed/.test(error.message)) return error;
  }
  return ApiError.invalidField('body', `The body is not a report this service reads. ${TAKEN}`);
}
