import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  contentTypeOf,
  nameOf,
  resolveEvidencePath,
  slotConfiguration,
  slotId,
  type Evidence,
  type EvidenceContext,
} from './evidence.js';

/**
 * The evidence of a JUnit report: `[[ATTACHMENT|path]]` lines in a `<testcase>`'s `<system-out>`
 * or `<system-err>` (what Playwright's JUnit reporter writes, and Jenkins' JUnit Attachments
 * plugin reads), each a file attached to that test case's result. The slot is the service's
 * (CONTRACT §14, §13): `classname.name` (an empty classname is none), in its testsuite's
 * `hostname` when the report's hostnames tell the same test apart, else the call's
 * configuration. A relative path is read from the report's folder (Playwright writes them so),
 * else from the working directory.
 */

/** The tags that matter, and what may hide one: comments and CDATA sections. */
const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)(testsuite|testcase|system-out|system-err)\b((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const LINE = /\[\[ATTACHMENT\|([^\]\r\n]+)\]\]/g;

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/** XML's five entities and character references decoded (the document was checked already). */
function decode(text: string): string {
  return text.replace(/&(?:#x([0-9a-fA-F]+)|#([0-9]+)|([a-z]+));/g, (whole, hex, dec, name) => {
    if (hex || dec) {
      const code = Number.parseInt(hex ?? dec, hex ? 16 : 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name as string] ?? whole;
  });
}

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE))
    attributes.set(match[1], decode(match[2] ?? match[3] ?? '').trim());
  return attributes;
}

interface Case {
  automationId: string;
  hostname: string;
  files: string[];
}

/** The report's test cases with the files their output names. */
function casesOf(xml: string): Case[] {
  const cases: Case[] = [];
  const hostnames: string[] = [];
  let current: Case | undefined;
  /** Inside a test case's output: the text gathered so far. */
  let output: string[] | undefined;
  let last = 0;
  for (const match of xml.matchAll(TOKEN)) {
    const at = match.index ?? 0;
    if (output) output.push(decode(xml.slice(last, at)));
    last = at + match[0].length;
    const [, cdata, closing, tag, attributes, selfClosing] = match;
    if (tag === undefined) {
      if (output && cdata !== undefined) output.push(cdata);
      continue;
    }
    if (tag === 'testsuite') {
      if (closing) hostnames.pop();
      else if (!selfClosing)
        hostnames.push(attributesOf(attributes).get('hostname') || (hostnames.at(-1) ?? ''));
    } else if (tag === 'testcase') {
      if (closing) {
        current = undefined;
        continue;
      }
      const a = attributesOf(attributes);
      const name = a.get('name') ?? '';
      const classname = a.get('classname') ?? '';
      const one = {
        automationId: slotId(classname ? `${classname}.${name}` : name),
        hostname: hostnames.at(-1) ?? '',
        files: [],
      };
      cases.push(one);
      current = selfClosing ? undefined : one;
    } else if (current) {
      if (!closing && !selfClosing) output = [];
      else if (closing && output) {
        for (const line of output.join('').matchAll(LINE)) current.files.push(line[1].trim());
        output = undefined;
      }
    }
  }
  return cases;
}

/** Whether a test appears under two distinct testsuite hostnames (the service's rule). */
function hostnamesTellApart(cases: Case[]): boolean {
  const first = new Map<string, string>();
  for (const { automationId, hostname } of cases) {
    if (hostname === '') continue;
    const seen = first.get(automationId);
    if (seen === undefined) first.set(automationId, hostname);
    else if (seen !== hostname) return true;
  }
  return false;
}

export function junitEvidence(xml: string, context: EvidenceContext): Evidence[] {
  const cases = casesOf(xml);
  const byHostname = hostnamesTellApart(cases);
  return cases.flatMap((testCase) =>
    testCase.files.map((file) => ({
      report: context.report,
      automationId: testCase.automationId,
      configuration: byHostname ? slotConfiguration(testCase.hostname) : undefined,
      name: nameOf(path.basename(file)),
      contentType: contentTypeOf(undefined, file),
      source: { file: resolveEvidencePath(file, context, existsSync) },
    })),
  );
}
