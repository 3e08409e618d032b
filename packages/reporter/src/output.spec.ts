import { cleanLine, markdownText, oneLine, printer, redact, secretsOf } from './output.js';

const KEY = `svc_live_${'0f'.repeat(16)}`;

describe('what tm-report prints', () => {
  it('keeps each line one line, without C0 or C1 controls, ESC or bidi overrides', () => {
    expect(cleanLine('a\nb\r\nc\u2028d\u0085e\tf', [])).toBe('a b  c d e f');
    expect(cleanLine('\u001b[31mred\u001b[0m \u009b2J\u0007\u0000\u007f\u202eevil', [])).toBe(
      '[31mred[0m 2Jevil',
    );
    let written = '';
    const out = printer((text) => void (written += text), []);
    out.line('one\n::error::forged', 'two');
    out.redraw('bar\rx');
    expect(written).toBe('one ::error::forged\ntwo\n\rbar x');
  });

  it('neutralises a line that would run a GitHub Actions or Azure Pipelines command', () => {
    expect(cleanLine('::warning title=INJECTED::pwned', [])).toBe(
      '> ::warning title=INJECTED::pwned',
    );
    expect(cleanLine('  ##[error]x', [])).toBe('  ## [error]x');
    expect(cleanLine('Pay: expected ok ##[add-mask]Failed', [])).toBe(
      'Pay: expected ok ## [add-mask]Failed',
    );
    expect(cleanLine('\u001b::add-mask::x', [])).toBe('> ::add-mask::x');
    expect(cleanLine('name ##vso[task.setvariable variable=a]1', [])).toBe(
      'name ##vso [task.setvariable variable=a]1',
    );
    expect(cleanLine('tm-report: a ::b:: c', [])).toBe('tm-report: a ::b:: c');
  });

  it('redacts TM_API_KEY, anything shaped like a key, echoed credentials and a proxy’s secret headers', () => {
    const secrets = secretsOf({
      TM_API_KEY: ` ${KEY} `,
      TM_EXTRA_HEADERS: JSON.stringify({
        'Proxy-Authorization': 'Basic dXNlcjpwYXNz',
        'X-Forwarded-Proto': 'https',
        'X-Env': 'production',
      }),
    });
    expect(secrets).toEqual([KEY, 'Basic dXNlcjpwYXNz']);
    expect(
      redact(`Authorization: Bearer ${KEY}; other svc_live_abc; ${KEY.slice(9)}`, [KEY.slice(9)]),
    ).toBe('Authorization: Bearer svc_live_[redacted]; other svc_live_[redacted]; [redacted]');
    expect(redact('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30', [])).toBe(
      'Authorization: Bearer [redacted]',
    );
    expect(cleanLine('proxy said: Basic dXNlcjpwYXNz at production over https', secrets)).toBe(
      'proxy said: [redacted] at production over https',
    );
    expect(redact('the Basic plan', [])).toBe('the Basic plan');
  });

  it('shows a report’s text in Markdown as written, never as Markdown or HTML', () => {
    expect(markdownText('<img src=x> [a](https://e.x) **b** | `c` #d')).toBe(
      '\\<img src\\=x\\> \\[a\\]\\(https\\:\\/\\/e\\.x\\) \\*\\*b\\*\\* \\| \\`c\\` \\#d',
    );
    expect(oneLine('a\n  b\u001b[1m', 5)).toBe('a b[…');
  });
});
