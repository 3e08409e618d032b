import { ReporterError } from './errors.js';
import type { Report } from './reports.js';

/** The service refuses bodies over 10 MiB, inflated (CONTRACT §1). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export type JunitReport = Extract<Report, { bytes: Buffer }> & { kind: 'junit' };

/**
 * One call's JUnit body: several whole reports under one `<testsuites>`, one report as it is,
 * or a share of one large report's suites (`part`). `identity` is what its `Idempotency-Key`
 * is derived from: its members' content hashes (and the part), so the same files sent again
 * give the same key.
 */
export interface JunitBody {
  reports: JunitReport[];
  body: Buffer;
  identity: string[];
  part?: { index: number; of: number };
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const OPEN = '<testsuites>\n';
const CLOSE = '</testsuites>\n';
const WRAPPING = Buffer.byteLength(DECLARATION + OPEN + CLOSE);

/** The rest of a start tag after its name: attributes (a `>` may be in a quoted value), then `>` or `/>`. */
const TAG_REST = /(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(\/?)>/y;
const TESTCASE = /<testcase\b((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const HOSTNAME = /<testsuite\b[^>]*?\shostname\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** What of a report goes into a packed body: its root's suites, as text. */
interface Parsed {
  report: JunitReport;
  /** The `<testsuite>` elements (or the whole root `<testsuite>`), as one piece of text. */
  suites: string;
  /** The top-level elements of `suites`, each a whole `<testsuite>` (to split a large report). */
  elements: () => string[];
  size: number;
  /** The automation ids of its test cases (`classname.name`, or `name`): a pack holds each once. */
  ids: Set<string>;
}

function skipUntil(text: string, from: number, end: string): number {
  const at = text.indexOf(end, from);
  return at === -1 ? text.length : at + end.length;
}

/**
 * The report's suites as text, or undefined when it cannot share a body with others as it is:
 * another encoding than UTF-8, a DOCTYPE (its entities), namespaces declared on a root
 * `<testsuites>` that packing drops, or testsuite hostnames that may tell its tests apart as
 * configurations (CONTRACT §13: decided over a whole body).
 */
function suitesOf(report: JunitReport): Omit<Parsed, 'report' | 'ids' | 'size'> | undefined {
  const text = report.bytes.toString('utf8').replace(/^\uFEFF/, '');
  let i = 0;
  for (;;) {
    while (/\s/.test(text[i] ?? '')) i++;
    if (text.startsWith('<?xml', i)) {
      const end = skipUntil(text, i, '?>');
      const encoding = /encoding\s*=\s*["']([^"']*)["']/.exec(text.slice(i, end))?.[1];
      if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) return undefined;
      i = end;
    } else if (text.startsWith('<!--', i)) i = skipUntil(text, i, '-->');
    else if (text.startsWith('<!', i)) return undefined;
    else if (text.startsWith('<?', i)) i = skipUntil(text, i, '?>');
    else break;
  }
  const root = /^<(testsuites|testsuite)\b/.exec(text.slice(i, i + 12))?.[1];
  if (!root) return undefined;
  TAG_REST.lastIndex = i + 1 + root.length;
  const tag = TAG_REST.exec(text);
  if (!tag) return undefined;
  const hostnames = new Set([...text.matchAll(HOSTNAME)].map((m) => (m[1] ?? m[2]).trim()));
  hostnames.delete('');
  if (hostnames.size > 1) return undefined;
  const selfClosing = tag[1] === '/';
  if (root === 'testsuite') {
    const end = selfClosing
      ? TAG_REST.lastIndex
      : skipUntil(text, text.lastIndexOf('</testsuite'), '>');
    const suites = text.slice(i, end);
    return { suites, elements: () => [suites] };
  }
  if (/\sxmlns[:=]/.test(text.slice(i, TAG_REST.lastIndex))) return undefined;
  const suites = selfClosing
    ? ''
    : text.slice(TAG_REST.lastIndex, text.lastIndexOf('</testsuites'));
  return { suites, elements: () => topLevelElements(suites) };
}

/** The elements at the top of `xml` (whole, with what they hold), skipping text and comments. */
export function topLevelElements(xml: string): string[] {
  const elements: string[] = [];
  let depth = 0;
  let start = 0;
  for (let lt = xml.indexOf('<'); lt !== -1; lt = xml.indexOf('<', lt)) {
    if (xml.startsWith('<!--', lt)) lt = skipUntil(xml, lt, '-->');
    else if (xml.startsWith('<![CDATA[', lt)) lt = skipUntil(xml, lt, ']]>');
    else if (xml.startsWith('<?', lt)) lt = skipUntil(xml, lt, '?>');
    else if (xml.startsWith('</', lt)) {
      const end = skipUntil(xml, lt, '>');
      if (--depth === 0) elements.push(xml.slice(start, end));
      lt = end;
    } else {
      const name = /^<[^\s/>]+/.exec(xml.slice(lt, lt + 256))?.[0] ?? '<';
      TAG_REST.lastIndex = lt + name.length;
      const tag = TAG_REST.exec(xml);
      const end = tag ? TAG_REST.lastIndex : skipUntil(xml, lt, '>');
      if (depth === 0) start = lt;
      if (tag?.[1] === '/') {
        if (depth === 0) elements.push(xml.slice(start, end));
      } else depth++;
      lt = end;
    }
  }
  return elements;
}

function idsOf(suites: string): Set<string> {
  const ids = new Set<string>();
  for (const [, attributes] of suites.matchAll(TESTCASE)) {
    let classname = '';
    let name = '';
    for (const [, key, double, single] of attributes.matchAll(ATTRIBUTE)) {
      if (key === 'classname') classname = (double ?? single).trim();
      else if (key === 'name') name = (double ?? single).trim();
    }
    ids.add(classname ? `${classname}.${name}` : name);
  }
  return ids;
}

const wrap = (pieces: string[]) =>
  Buffer.from(DECLARATION + OPEN + pieces.join('\n') + '\n' + CLOSE);

/** A report larger than a body, split between its `<testsuite>` elements into bodies. */
function split(parsed: Parsed, maxBytes: number): JunitBody[] {
  const { report } = parsed;
  const groups: string[][] = [];
  let group: string[] = [];
  let size = WRAPPING;
  for (const element of parsed.elements()) {
    const bytes = Buffer.byteLength(element) + 1;
    if (bytes + WRAPPING > maxBytes) {
      throw new ReporterError(
        `${report.file}: the report is ${(report.bytes.length / 1048576).toFixed(1)} MiB with a <testsuite> of ${(bytes / 1048576).toFixed(1)} MiB; the service takes at most ${maxBytes / 1048576} MiB per call (inflated), and a report is split only between its testsuites.`,
      );
    }
    if (group.length > 0 && size + bytes > maxBytes) {
      groups.push(group);
      group = [];
      size = WRAPPING;
    }
    group.push(element);
    size += bytes;
  }
  if (group.length > 0) groups.push(group);
  return groups.map((pieces, index) => ({
    reports: [report],
    body: wrap(pieces),
    identity: [report.hash, `part:${index}/${groups.length}`],
    part: { index, of: groups.length },
  }));
}

/**
 * JUnit reports in as few bodies as the limit allows (issue 28: every call counts against the
 * monthly quota): small reports share a body, their suites under one `<testsuites>`, in their
 * order; a report over the limit is split between its suites. A report that shares a test's
 * automation id with the body being filled starts the next (within one body the service would
 * merge them as reruns, CONTRACT §13); one that cannot share a body (`suitesOf`) goes alone, as
 * it is; so does a report alone in its body, keeping the key it always had.
 */
export function packJunit(reports: JunitReport[], maxBytes = MAX_BODY_BYTES): JunitBody[] {
  const bodies: JunitBody[] = [];
  let members: Parsed[] = [];
  let size = WRAPPING;
  let ids = new Set<string>();
  const flush = () => {
    if (members.length === 1) {
      const { report } = members[0];
      bodies.push({ reports: [report], body: report.bytes, identity: [report.hash] });
    } else if (members.length > 1) {
      bodies.push({
        reports: members.map((m) => m.report),
        body: wrap(members.map((m) => m.suites)),
        identity: members.map((m) => m.report.hash),
      });
    }
    members = [];
    size = WRAPPING;
    ids = new Set();
  };
  for (const report of reports) {
    const found = suitesOf(report);
    if (!found) {
      if (report.bytes.length > maxBytes) throw tooLarge(report, maxBytes);
      bodies.push({ reports: [report], body: report.bytes, identity: [report.hash] });
      continue;
    }
    const parsed: Parsed = {
      report,
      ...found,
      size: Buffer.byteLength(found.suites) + 1,
      ids: idsOf(found.suites),
    };
    if (parsed.size + WRAPPING > maxBytes) {
      bodies.push(...split(parsed, maxBytes));
      continue;
    }
    const overlaps = [...parsed.ids].some((id) => ids.has(id));
    if (overlaps || size + parsed.size > maxBytes) flush();
    members.push(parsed);
    size += parsed.size;
    for (const id of parsed.ids) ids.add(id);
  }
  flush();
  return bodies;
}

function tooLarge(report: JunitReport, maxBytes: number): ReporterError {
  return new ReporterError(
    `${report.file}: the report is ${(report.bytes.length / 1048576).toFixed(1)} MiB; the service takes at most ${maxBytes / 1048576} MiB per call (inflated), and this report cannot be split between its testsuites (another encoding than UTF-8, a DOCTYPE, or one root <testsuite>).`,
  );
}
