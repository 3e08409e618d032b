import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ApiError } from '../../common/errors/api-error.js';
import { RESULT_ITEM_FIELDS } from '../result-item-fields.js';

/**
 * A report's text (a failure message, a stack trace) is collected up to one character past
 * the longest kept, so that cutting it (`cutText`) sees whether its last kept character is
 * half of a pair. Reports can carry megabytes of trace: only what is stored is held.
 */
const MAX_COLLECTED =
  Math.max(RESULT_ITEM_FIELDS.message.maxLength, RESULT_ITEM_FIELDS.stack_trace.maxLength) + 1;

/** The text of one element, bounded; leading whitespace (indentation) takes no room. */
export class BoundedText {
  text = '';

  add(chunk: string): void {
    const room = MAX_COLLECTED - this.text.length;
    if (room <= 0) return;
    const kept = this.text === '' ? chunk.trimStart() : chunk;
    this.text += kept.length > room ? kept.slice(0, room) : kept;
  }

  /** The text without trailing whitespace, or null when there is none. */
  value(): string | null {
    return this.text.trimEnd() || null;
  }
}

/** What a format's parser does with the document's elements, in document order. */
export interface XmlHandlers {
  /** An element opens; `name` is its local name (a namespace prefix is left out). */
  open(name: string, tag: SaxesTagPlain): void;
  close(name: string): void;
  /** Text and CDATA, where the parser is collecting it. */
  text(text: string): void;
}

/**
 * Streams `xml` once through `handlers` (linear in its size; the document is never built as a
 * tree). Malformed XML is a 400 naming `body` with the line and column, saying which
 * format's report it was read as (`label`); so is a root element other than `root` (when
 * one is required).
 */
export function streamXml(
  xml: string,
  label: string,
  root: string | null,
  handlers: XmlHandlers,
): void {
  const parser = new SaxesParser<{ xmlns: false; position: true }>({
    xmlns: false,
    position: true,
  });
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= error;
  });
  let sawRoot = false;
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    if (!sawRoot) {
      sawRoot = true;
      if (root !== null && name !== root && failure === null)
        throw notOfFormat(label, `the root element is <${name}>, not <${root}>`);
    }
    handlers.open(name, tag);
  });
  parser.on('closetag', (tag) => handlers.close(localName(tag.name)));
  parser.on('text', (text) => handlers.text(text));
  parser.on('cdata', (text) => handlers.text(text));
  parser.write(xml).close();
  if (failure) throw malformed(failure, label);
  if (!sawRoot) throw notOfFormat(label, 'it has no root element');
}

/** Writers that qualify the format's elements with a prefix (`<t:TestRun xmlns:t=…>`). */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** saxes reports "line:column: message". */
function malformed(error: Error, label: string): ApiError {
  const match = /^(\d+):(\d+): (.*)$/s.exec(error.message);
  const where = match ? ` at line ${match[1]}, column ${match[2]}` : '';
  const what = match ? match[3] : error.message;
  return ApiError.invalidField('body', `The body is not well-formed ${label}${where}: ${what}`);
}

/** An attribute, trimmed ('' when absent). */
export function attribute(tag: SaxesTagPlain, name: string): string {
  return (tag.attributes[name] ?? '').trim();
}

/** A report whose content breaks its format's rules (an unknown status): 400 naming `body`. */
export function notOfFormat(label: string, what: string): ApiError {
  return ApiError.invalidField('body', `The body is not a valid ${label}: ${what}`);
}
