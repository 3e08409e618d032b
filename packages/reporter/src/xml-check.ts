import { ReportSyntaxError, columnAt, lineAt } from './report-syntax.js';
import { XML_FORMATS, type XmlFormat } from './formats.js';

/**
 * Characters XML 1.0 does not allow anywhere, even in CDATA or a comment (its `Char`
 * production): the C0 controls but tab, LF and CR (NUL, a raw ESC of a runner's colours), and
 * U+FFFE, U+FFFF. The service's parser refuses them; lone surrogates cannot come from UTF-8.
 */
const ILLEGAL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const CONTROL_NAMES: Record<number, string> = { 0: 'NUL', 0x1b: 'ESC' };

/** Whether a character reference's code point is one XML 1.0 allows. */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

const codePoint = (code: number) =>
  `U+${code.toString(16).toUpperCase().padStart(4, '0')}${CONTROL_NAMES[code] ? ` (${CONTROL_NAMES[code]})` : ''}`;

/** A reference in text or an attribute value: the five predefined entities, or a character's. */
const REFERENCE = /&(?:(?:amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/y;
const ENTITY_NAME = /&([A-Za-z_:][-\w.:]*);/y;

const NAME = /[A-Za-z_:][-\w.:]*/y;
const CLOSING_END = /\s*>/y;

/** XML whitespace: space, tab, CR, LF. A char-code test, not a regex: it runs per character. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** The first character in [from, to) that is not whitespace, or -1. */
function firstNonSpace(xml: string, from: number, to: number): number {
  for (let k = from; k < to; k++) if (!isSpace(xml.charCodeAt(k))) return k;
  return -1;
}
/**
 * The rest of a well-formed start tag after its name, in one sticky match: attributes
 * `name="value"` or `name='value'` (no `<` in a value), XML whitespace between, then `>` or
 * `/>` (group 1). The regex engine runs compiled from the first report on, where the
 * character loop below would still be interpreted: the first reports of a shard check 2–3×
 * faster. Only a tag it refuses goes through the loop, which then names the error.
 */
const TAG_REST =
  /(?:[ \t\r\n]*[A-Za-z_:][-\w.:]*[ \t\r\n]*=[ \t\r\n]*(?:"[^"<]*"|'[^'<]*'))*[ \t\r\n]*(\/?)>/y;

interface StartTagEnd {
  /** Just after the tag's `>`. */
  end: number;
  selfClosing: boolean;
}

/** The end of the start tag whose name ends at `from`; a malformed tag fails, saying why. */
export function startTagEnd(
  xml: string,
  from: number,
  name: string,
  fail: (index: number, message: string) => never,
): StartTagEnd {
  TAG_REST.lastIndex = from;
  const rest = TAG_REST.exec(xml);
  if (rest) return { end: TAG_REST.lastIndex, selfClosing: rest[1] === '/' };
  return startTagEndStepwise(xml, from, name, fail);
}

/** The same grammar as TAG_REST, character by character, to name what is wrong and where. */
export function startTagEndStepwise(
  xml: string,
  from: number,
  name: string,
  fail: (index: number, message: string) => never,
): StartTagEnd {
  let j = from;
  for (;;) {
    while (isSpace(xml.charCodeAt(j))) j++;
    if (j >= xml.length) fail(from - name.length - 1, `unterminated tag <${name}`);
    if (xml.startsWith('/>', j)) return { end: j + 2, selfClosing: true };
    if (xml[j] === '>') return { end: j + 1, selfClosing: false };
    NAME.lastIndex = j;
    const attribute = NAME.exec(xml)?.[0];
    if (!attribute) fail(j, `malformed attribute in <${name}>`);
    j += attribute.length;
    while (isSpace(xml.charCodeAt(j))) j++;
    if (xml[j] !== '=') fail(j, `attribute ${attribute} of <${name}> has no value`);
    j++;
    while (isSpace(xml.charCodeAt(j))) j++;
    const quote = xml[j];
    if (quote !== '"' && quote !== "'")
      fail(j, `attribute ${attribute} of <${name}> is not quoted`);
    const close = xml.indexOf(quote, j + 1);
    if (close === -1) fail(j, `unterminated value of attribute ${attribute}`);
    const lessThan = xml.indexOf('<', j + 1);
    if (lessThan !== -1 && lessThan < close) fail(j, `'<' in the value of attribute ${attribute}`);
    j = close + 1;
  }
}

/** The format of each root element a report may have (CONTRACT §14); a prefix is ignored. */
const FORMAT_OF_ROOT = new Map<string, XmlFormat>(
  Object.entries(XML_FORMATS).flatMap(([format, { roots }]) =>
    roots.map((root) => [root, format as XmlFormat]),
  ),
);

const ROOTS_TAKEN = Object.values(XML_FORMATS)
  .map(({ roots, label }) => `${roots.map((root) => `<${root}>`).join(' or ')} (${label})`)
  .join(', ');

const FIRST_ELEMENT = /<([A-Za-z_][-\w.:]*)/;

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** A report's problem; `format` is set once the root element has told it. */
export class XmlReportError extends ReportSyntaxError {
  format?: XmlFormat;
}

/**
 * A light well-formedness check of an XML report (no XML library): tags nest and close,
 * attribute values are quoted, there is one root and it is one a format of CONTRACT §14 has.
 * Entities and encodings are left to the service. Returns the format and the number of its
 * result elements (`<testcase>`, `<UnitTestResult>`, …) the document holds.
 */
export function checkXmlReport(xml: string): { format: XmlFormat; results: number } {
  // What the first element's name says, to name the format in an error found before it.
  let format = FORMAT_OF_ROOT.get(localName(FIRST_ELEMENT.exec(xml)?.[1] ?? ''));
  function fail(index: number, message: string): never {
    const error = new XmlReportError(lineAt(xml, index), message, columnAt(xml, index));
    error.format = format;
    throw error;
  }
  const illegal = ILLEGAL_CHARACTER.exec(xml);
  if (illegal) {
    fail(
      illegal.index,
      `the character ${codePoint(xml.charCodeAt(illegal.index))}, which XML 1.0 does not allow (the service refuses the report): strip it, or the runner's colour codes, from test names and messages`,
    );
  }
  // Every '&' in text and attribute values starts a reference the service's parser knows;
  // those in CDATA, comments and the DOCTYPE are skipped over with them.
  let amp = xml.indexOf('&');
  const checkReferences = (from: number, to: number) => {
    if (amp !== -1 && amp < from) amp = xml.indexOf('&', from);
    for (; amp !== -1 && amp < to; amp = xml.indexOf('&', amp + 1)) {
      REFERENCE.lastIndex = amp;
      const reference = REFERENCE.exec(xml);
      if (!reference) {
        ENTITY_NAME.lastIndex = amp;
        const entity = ENTITY_NAME.exec(xml);
        fail(
          amp,
          entity
            ? `the entity ${entity[0]} is not defined (XML has &amp; &lt; &gt; &quot; &apos;; write a character reference such as &#160; instead)`
            : "'&' that starts no reference (write &amp;)",
        );
      }
      const digits = reference[1] ?? reference[2];
      if (digits !== undefined) {
        const code = reference[1] !== undefined ? Number(digits) : parseInt(digits, 16);
        if (!isXmlChar(code)) {
          fail(
            amp,
            `the character reference ${reference[0]} names ${code <= 0x10ffff ? codePoint(code) : 'no character'}, which XML 1.0 does not allow (the service refuses the report)`,
          );
        }
      }
    }
  };
  const stack: { name: string; at: number }[] = [];
  let root: string | undefined;
  let resultElement: string | undefined;
  let results = 0;
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  const until = (from: number, end: string, what: string) => {
    const at = xml.indexOf(end, from);
    if (at === -1) fail(from, `unterminated ${what}`);
    return at + end.length;
  };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    // Text only matters outside the root element (inside it, it is the service's business).
    if (stack.length === 0) {
      const at = firstNonSpace(xml, i, lt === -1 ? xml.length : lt);
      if (at !== -1)
        fail(at, root ? 'text after the root element' : 'text before the root element');
    } else checkReferences(i, lt === -1 ? xml.length : lt);
    if (lt === -1) break;
    if (xml.startsWith('<?', lt)) i = until(lt, '?>', 'processing instruction');
    else if (xml.startsWith('<!--', lt)) i = until(lt, '-->', 'comment');
    else if (xml.startsWith('<![CDATA[', lt)) {
      if (stack.length === 0) fail(lt, 'CDATA outside the root element');
      i = until(lt, ']]>', 'CDATA section');
    } else if (xml.startsWith('<!', lt)) {
      const bracket = xml.indexOf('[', lt);
      const close = xml.indexOf('>', lt);
      i =
        bracket !== -1 && bracket < close
          ? until(bracket, ']>', 'DOCTYPE')
          : until(lt, '>', 'DOCTYPE');
    } else if (xml.startsWith('</', lt)) {
      NAME.lastIndex = lt + 2;
      const name = NAME.exec(xml)?.[0];
      if (!name) fail(lt, 'malformed closing tag');
      const end = CLOSING_END;
      end.lastIndex = lt + 2 + name.length;
      if (!end.exec(xml)) fail(lt, `malformed closing tag </${name}`);
      const open = stack.pop();
      if (!open) fail(lt, `closing tag </${name}> without an opening tag`);
      if (open.name !== name) {
        fail(
          lt,
          `closing tag </${name}> does not match <${open.name}> opened on line ${lineAt(xml, open.at)}`,
        );
      }
      i = end.lastIndex;
    } else {
      NAME.lastIndex = lt + 1;
      const name = NAME.exec(xml)?.[0];
      if (!name) fail(lt, "'<' that starts no tag (write &lt; in text)");
      const { end, selfClosing } = startTagEnd(xml, lt + 1 + name.length, name, fail);
      checkReferences(lt, end);
      if (stack.length === 0) {
        if (root) fail(lt, `a second root element <${name}>`);
        root = name;
        format = FORMAT_OF_ROOT.get(localName(name));
        if (!format) {
          fail(lt, `the root element is <${name}>; a report's is one of ${ROOTS_TAKEN}`);
        }
        resultElement = XML_FORMATS[format].result;
      }
      if (localName(name) === resultElement) results++;
      if (!selfClosing) stack.push({ name, at: lt });
      i = end;
    }
  }
  const open = stack.pop();
  if (open) fail(open.at, `<${open.name}> is never closed`);
  if (!root || !format) fail(0, 'no root element: the file is empty or not XML');
  return { format, results };
}
