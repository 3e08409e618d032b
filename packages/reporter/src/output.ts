import type { Env } from './config.js';
import { proxySecretsOf } from './proxy-url.js';

/**
 * Everything tm-report prints or writes goes through here (issue 25). Much of it comes from
 * reports, the service or Node's network errors, which a hostile or broken source can fill with
 * terminal escapes, forged log lines, CI workflow commands or a secret it echoes. A print is a
 * list of lines: a line break inside one cannot start another.
 */

/** Line breaks and tabs (C0, NEL, Unicode's separators): a space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/** Other C0 and C1 controls (ESC, CSI…), DEL, and the bidi controls that reorder a shown line. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** GitHub Actions runs `::cmd::` at a line's start (after whitespace). */
const COMMAND_LINE = /^\s*::/;
/** GitHub Actions' older `##[cmd]` and Azure Pipelines' `##vso[` run anywhere in a line. */
const INLINE_COMMAND = /##(vso)?\[/gi;
/** API keys of the service, and an echoed `Authorization` header's credentials. */
const KEY_SHAPED = /svc_live_[0-9A-Za-z]+/g;
const CREDENTIALS = /\b(Bearer|Basic) +(?!svc_live_)[\w.~+/=-]{8,}/g;
/** TM_EXTRA_HEADERS whose values are secrets (a proxy's credentials). */
const SECRET_HEADER = /auth|token|key|secret|cookie|session|pass|credential/i;
const REDACTED = '[redacted]';

/** The secrets the environment holds: TM_API_KEY and a proxy's credentials. */
export function secretsOf(env: Env): string[] {
  const secrets = [env.TM_API_KEY?.trim() ?? '', ...proxySecretsOf(env)];
  try {
    const headers: unknown = JSON.parse(env.TM_EXTRA_HEADERS ?? '{}');
    if (typeof headers === 'object' && headers !== null) {
      for (const [name, value] of Object.entries(headers))
        if (SECRET_HEADER.test(name)) secrets.push(String(value).trim());
    }
  } catch {
    // config.ts refuses it before anything is sent.
  }
  // Longest first, so a secret holding another is redacted whole; a short one is no secret.
  return secrets.filter((s) => s.length >= 8).sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let safe = text;
  for (const secret of secrets) safe = safe.split(secret).join(REDACTED);
  return safe.replace(CREDENTIALS, `$1 ${REDACTED}`).replace(KEY_SHAPED, `svc_live_${REDACTED}`);
}

/** One line as it may be printed: no controls, no workflow command, no secret. */
export function cleanLine(text: string, secrets: readonly string[]): string {
  const line = redact(text, secrets)
    .replace(BREAKS, ' ')
    .replace(CONTROLS, '')
    .replace(INLINE_COMMAND, (command) => `${command.slice(0, -1)} [`);
  return COMMAND_LINE.test(line) ? `> ${line}` : line;
}

/** Where text is printed: each argument is one line. */
export interface Printer {
  line(...lines: string[]): void;
  /** Redraws the current line in place (a progress bar on a terminal). */
  redraw(line: string): void;
}

export function printer(write: (text: string) => void, secrets: readonly string[]): Printer {
  return {
    line: (...lines) => write(document(lines, secrets)),
    redraw: (line) => write(`\r${cleanLine(line, secrets)}`),
  };
}

/** A file's content (the Markdown summary), cleaned as printed lines are. */
export function document(lines: string[], secrets: readonly string[]): string {
  return lines.map((l) => `${cleanLine(l, secrets)}\n`).join('');
}

/**
 * Text from a report or the service inside a message: one line of visible characters, at most
 * `max` long.
 */
export function oneLine(text: unknown, max = 200): string {
  const line = String(text ?? '')
    .replace(BREAKS, ' ')
    .replace(CONTROLS, '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Such text in Markdown: every ASCII punctuation escaped, so it is shown, never rendered. */
export function markdownText(text: unknown, max = 200): string {
  return oneLine(text, max).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}
