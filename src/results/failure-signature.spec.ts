import fc from 'fast-check';
import { RESULT_STATUSES } from './entities/result-status.js';
import { FAILURES, NUMBERED_FAILURES, RUN_A, RUN_B } from './failure-signature.fixtures.js';
import {
  failureSignature,
  normalizeFailureMessage,
  SIGNATURE_MESSAGE_LENGTH,
} from './failure-signature.js';

const failed = (failureType: string | null, message: string | null) =>
  failureSignature('failed', failureType, message) as string;

/** The message with each run of digits replaced by the next of `runs`, in turn. */
const withDigits = (message: string, runs: readonly string[]) => {
  let next = 0;
  return message.replace(/\d+/g, () => runs[next++ % runs.length]);
};

/** CPU time of the fastest of three calls, in milliseconds. */
function cpuMilliseconds(run: () => void): number {
  return Math.min(
    ...[1, 2, 3].map(() => {
      const started = process.cpuUsage();
      run();
      const used = process.cpuUsage(started);
      return (used.user + used.system) / 1000;
    }),
  );
}

describe('failureSignature', () => {
  it.each(RESULT_STATUSES.map((status) => ({ status })))(
    'gives a $status result a signature only if it failed or was blocked',
    ({ status }) => {
      const signature = failureSignature(status, 'AssertionError', 'assert 41 == 42');
      if (status === 'failed' || status === 'blocked') expect(signature).toMatch(/^[0-9a-f]{16}$/);
      else expect(signature).toBeNull();
    },
  );

  it('is the first 16 hex digits of a SHA-256 that does not change between versions', () => {
    // Stored signatures group failures across releases: changing this value splits every
    // group in two, so it takes a migration that recomputes them.
    expect(failed('AssertionError', 'AssertionError: assert 41 == 42')).toBe('be0eb7fb3e88a1d7');
    expect(failureSignature('blocked', 'AssertionError', 'AssertionError: assert 1 == 2')).toBe(
      'be0eb7fb3e88a1d7',
    );
  });

  it.each(FAILURES)('gives a $name the same signature in another run', (fixture) => {
    expect(failed(fixture.failureType, fixture.message(RUN_B))).toBe(
      failed(fixture.failureType, fixture.message(RUN_A)),
    );
  });

  it('gives every kind of failure its own signature', () => {
    const signatures = FAILURES.map((fixture) =>
      failed(fixture.failureType, fixture.message(RUN_A)),
    );
    expect(new Set(signatures).size).toBe(FAILURES.length);
  });

  it.each([
    {
      what: 'another exception with the same message',
      one: ['java.lang.NullPointerException', 'Cannot invoke "String.length()"'],
      other: ['java.lang.IllegalStateException', 'Cannot invoke "String.length()"'],
    },
    {
      what: 'another assertion',
      one: ['Error', 'expect(received).toBe(expected) // Object.is equality\n\nExpected: 3'],
      other: ['Error', 'expect(received).toEqual(expected) // deep equality\n\nExpected: 3'],
    },
    {
      what: 'another comparison',
      one: ['AssertionError', 'assert 41 == 42'],
      other: ['AssertionError', 'assert 41 != 42'],
    },
    {
      what: 'a failure type differing only in case',
      one: ['TypeError', 'x is not a function'],
      other: ['typeerror', 'x is not a function'],
    },
    {
      what: 'a message differing only in case',
      one: ['Error', 'TypeError: x is not a function'],
      other: ['Error', 'typeerror: x is not a function'],
    },
    {
      what: 'the same message as a failure type and as a message',
      one: ['AssertionError', ''],
      other: ['', 'AssertionError'],
    },
    {
      what: 'another locator',
      one: ['TimeoutError', "waiting for locator('#submit')"],
      other: ['TimeoutError', "waiting for getByRole('button')"],
    },
  ] as const)('tells apart $what', ({ one, other }) => {
    expect(failed(one[0], one[1])).not.toBe(failed(other[0], other[1]));
  });

  it('decides by the failure type alone when there is no message', () => {
    const typeOnly = failed('org.opentest4j.AssertionFailedError', null);
    expect(failed('org.opentest4j.AssertionFailedError', '')).toBe(typeOnly);
    expect(failed(' org.opentest4j.AssertionFailedError\n', ' \n\t ')).toBe(typeOnly);
    expect(failed('java.lang.AssertionError', null)).not.toBe(typeOnly);
    expect(failed(null, null)).toMatch(/^[0-9a-f]{16}$/);
    expect(failed(null, null)).toBe(failed('', ''));
  });

  it('hashes only the first 1,000 normalized characters', () => {
    const head = 'x'.repeat(SIGNATURE_MESSAGE_LENGTH - 1);
    expect(failed('Error', `${head}a tail`)).toBe(failed('Error', `${head}a different tail`));
    expect(failed('Error', `${head}a`)).not.toBe(failed('Error', `${head}b`));
    // Numbers shrink to one character, so the cut is after normalizing.
    const numbers = Array.from({ length: 400 }, (_, i) => i * 1_000_003).join(' ');
    expect(failed('Error', `${numbers} a`)).not.toBe(failed('Error', `${numbers} b`));
  });
});

describe('normalizeFailureMessage', () => {
  it.each([
    ['a UUID', 'order 3F2504E0-4F89-11D3-9A0C-0305E82C3301 failed', 'order <uuid> failed'],
    ['an ISO-8601 time', 'at 2026-11-23T10:00:00.123Z,', 'at <time>,'],
    ['a time with an offset', 'at 2026-11-23T10:00:00+01:00.', 'at <time>.'],
    ['a time with a space', '[2026-11-23 10:00:00] ERROR', '[<time>] ERROR'],
    ['a date', 'due 2026-11-23', 'due <time>'],
    ['a time of day', 'at 10:00:00.123 and 9:05:59', 'at <time> and <time>'],
    ['an HTTP date', 'Date: Mon, 23 Nov 2026 10:00:00 GMT', 'Date: <time> <time> GMT'],
    ['a written date', 'on November 23, 2026', 'on <time>'],
    ['an address', 'at 0x7ffd5a3c1e20 (0xDEAD)', 'at # (#)'],
    ['a commit sha', 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8.', 'commit #.'],
    ['an object id', 'document 65a1f0c2e4b0d3a1f2c3d4e5 missing', 'document # missing'],
    ['hex words and short ids (kept)', 'deadbeef cafe12 12345678.9', 'deadbeef cafe# #'],
    [
      'a POSIX path with line and column',
      'at /home/runner/work/app/src/foo.test.ts:42:13',
      'at <path>',
    ],
    ['a stack frame', 'at Foo.bar (foo.js:10:5)', 'at Foo.bar (<path>)'],
    ['a Java stack frame', 'at com.example.Bar.baz(Bar.java:42)', 'at com.example.Bar.baz(<path>)'],
    ['a Windows path', 'C:\\x\\y.py:12: in test', '<path>: in test'],
    ['a Node internal', '(node:internal/process/task_queues:95:5)', '(node:<path>)'],
    ['a Python frame', 'File "/app/x.py", line 42, in f', 'File <path>, in f'],
    ['a Go position', '    foo_test.go:42: got 3', '<path>: got #'],
    ['a Go test name', '--- FAIL: TestFoo (0.02s)', '--- FAIL: <test> (#s)'],
    [
      'a port (not a file)',
      'connect ECONNREFUSED localhost:5432',
      'connect ECONNREFUSED localhost:#',
    ],
    ['quoted values', `a 'x' "y z" \`w\` b`, 'a <str> <str> <str> b'],
    ['escaped quotes', 'got "say \\"hi\\"" here', 'got <str> here'],
    ['apostrophes', "don't touch 'it'", "don't touch <str>"],
    ['an unclosed quote (kept)', 'a "b c', 'a "b c'],
    ['JUnit values', 'expected:<[foo]> but was:<[bar]>', 'expected:<str> but was:<str>'],
    ['opentest4j values', 'expected: <12> but was: <13>', 'expected: <str> but was: <str>'],
    ['integers and decimals', 'got 3, want 4.25', 'got #, want #'],
    ['negatives', 'got -3 (x-1, [2]-1)', 'got # (x-#, [#]-#)'],
    ['units', 'Timeout 30000ms exceeded after 1.5s', 'Timeout #ms exceeded after #s'],
    ['versions and exponents', 'node 20.19.2 1e-5 2.5E+10', 'node # # #'],
    ['digits inside words', 'abc-123 local1 Int32Array', 'abc-# local# Int#Array'],
    ['whitespace', '  a\n\n\tb  \r\n c  ', 'a b c'],
    [
      'terminal colours',
      '\u001b[2mexpect(\u001b[22m\u001b[31mreceived\u001b[39m)',
      'expect(received)',
    ],
  ])('normalizes %s', (_what, message, normalized) => {
    expect(normalizeFailureMessage(message)).toBe(normalized);
  });

  it('keeps at most 1,000 characters', () => {
    const message = 'Error: boom\n'.repeat(10_000);
    expect(normalizeFailureMessage(message)).toHaveLength(SIGNATURE_MESSAGE_LENGTH);
    expect(normalizeFailureMessage(message)).toBe(
      normalizeFailureMessage(message, Infinity).slice(0, SIGNATURE_MESSAGE_LENGTH),
    );
  });

  it('normalizes a 1 MB message in well under 100 ms, whatever it holds', () => {
    const megabyte = (piece: string) => piece.repeat(Math.ceil(2 ** 20 / piece.length));
    const messages = [
      megabyte(FAILURES.map((fixture) => fixture.message(RUN_A)).join('\n')),
      // One line each, made to trip patterns that backtrack.
      megabyte('a'),
      megabyte('1'),
      megabyte('a1'),
      megabyte('a.'),
      megabyte('-'),
      megabyte(' '),
      megabyte('"\\"'),
      megabyte("'a"),
      megabyte('abcdef'),
      megabyte('expected:<'),
      `"${megabyte('x ')}`,
      `"${megabyte('x')}" is one value`,
    ];
    normalizeFailureMessage(messages[0]); // warm-up: compiles the pattern
    for (const message of messages)
      expect(cpuMilliseconds(() => normalizeFailureMessage(message))).toBeLessThan(50);
  });
});

describe('failure signatures, property-based', () => {
  it('keeps the signature when every number changes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NUMBERED_FAILURES),
        fc.constantFrom(RUN_A, RUN_B),
        fc.array(fc.stringMatching(/^\d{1,12}$/), { minLength: 1 }),
        (fixture, run, runs) => {
          const message = fixture.message(run);
          expect(failed(fixture.failureType, withDigits(message, runs))).toBe(
            failed(fixture.failureType, message),
          );
        },
      ),
    );
  });

  it('keeps the signature when ids, timestamps and addresses change', () => {
    const message = (uuid: string, time: Date, sha: string, address: string) =>
      `[${time.toISOString()}] job ${uuid} at ${sha} crashed at ${address} ` +
      `(started ${time.toUTCString()}, ${time.toISOString().slice(0, 19).replace('T', ' ')}, ` +
      `${time.toISOString().slice(11, 23)})`;
    const times = fc.date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    // A sha of hex letters only (one in 10^17) reads as a word.
    const shas = fc.stringMatching(/^[0-9a-f]{40}$/).filter((sha) => /\d/.test(sha));
    const addresses = fc.stringMatching(/^0x[0-9a-f]{1,16}$/);
    const expected = failed(
      'Error',
      message(RUN_A.uuid, RUN_A.time, RUN_A.commitSha, RUN_A.address),
    );
    fc.assert(
      fc.property(fc.uuid(), times, shas, addresses, (uuid, time, sha, address) => {
        expect(failed('Error', message(uuid, time, sha, address))).toBe(expected);
      }),
    );
  });

  it('keeps the signature when the checkout, the file, the line and the column change', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_@~+-][A-Za-z0-9._@~+-]{0,15}$/);
    const file = fc.tuple(segment, fc.constantFrom('ts', 'js', 'py', 'java', 'go'));
    const position = fc.tuple(fc.nat(), fc.option(fc.nat(), { nil: undefined }));
    const frames = fc
      .tuple(fc.constantFrom('/', 'C:\\', ''), fc.array(segment, { maxLength: 6 }), file, position)
      .map(([root, folders, [name, extension], [line, column]]) => {
        const path = root + [...folders, `${name}.${extension}`].join(root === '/' ? '/' : '\\');
        return `at Cart.total (${path}:${line}${column === undefined ? '' : `:${column}`})`;
      });
    fc.assert(
      fc.property(frames, frames, (one, other) => {
        expect(normalizeFailureMessage(one)).toBe('at Cart.total (<path>)');
        expect(failed('Error', one)).toBe(failed('Error', other));
      }),
    );
  });

  it('keeps the signature when a quoted value changes', () => {
    const message = (value: string) =>
      `Expected string: ${JSON.stringify(value)}\nLocator: getByRole('${value.replace(/['\\\n]/g, '')}')`;
    fc.assert(
      fc.property(fc.string(), fc.string(), (one, other) => {
        expect(failed('Error', message(one))).toBe(failed('Error', message(other)));
      }),
    );
  });

  it('gives different failure types different signatures', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (one, other, message) => {
        fc.pre(one.trim() !== other.trim());
        expect(failed(one, message)).not.toBe(failed(other, message));
      }),
    );
  });

  it('cuts after normalizing all of the message, not before', () => {
    const piece = fc.oneof(
      fc.constantFrom(...FAILURES.map((fixture) => fixture.message(RUN_A))),
      fc.string({ maxLength: 40 }),
      fc.constantFrom(' ', '\n', '"', "'", '`', '\\', '-', ':', '.', '/', '0x', 'a1'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const message = pieces.join('');
        expect(normalizeFailureMessage(message)).toBe(
          normalizeFailureMessage(message, Infinity).slice(0, SIGNATURE_MESSAGE_LENGTH),
        );
      }),
    );
  });
});
