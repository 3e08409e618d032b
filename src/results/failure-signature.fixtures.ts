/**
 * Failure messages as test frameworks write them, with what changes from one run (or one
 * case) to the next left open, so a test can fill it in twice and compare the signatures.
 */

/** What differs between two runs of the same failing test, or two cases failing alike. */
export interface RunDetails {
  /** Values the test saw: counts, durations, ports, amounts. */
  readonly numbers: readonly [number, number, number, number];
  readonly uuid: string;
  readonly commitSha: string;
  readonly address: string;
  readonly time: Date;
  /** Where the CI runner checked the repository out. */
  readonly checkout: string;
  readonly line: number;
  readonly column: number;
  readonly testName: string;
}

export const RUN_A: RunDetails = {
  numbers: [3, 4, 30000, 12],
  uuid: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  commitSha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  address: '0x7ffd5a3c1e20',
  time: new Date('2026-11-23T10:00:00.123Z'),
  checkout: '/home/runner/work/shop/shop',
  line: 42,
  column: 13,
  testName: 'TestCartTotal',
};

export const RUN_B: RunDetails = {
  numbers: [-17, 1024, 5000, 7],
  uuid: 'c56a4180-65aa-42ec-a945-5fd21dec0538',
  commitSha: '1b7e4f0c2d9a8e3f5a6b7c8d9e0f1a2b3c4d5e6f',
  address: '0x55d1c0de0b10',
  time: new Date('2027-02-03T23:59:58.9Z'),
  checkout: '/builds/team/shop',
  line: 108,
  column: 5,
  testName: 'TestInvoiceRounding',
};

export interface FailureFixture {
  readonly name: string;
  readonly failureType: string | null;
  readonly message: (run: RunDetails) => string;
}

/**
 * Messages in which every run of digits is a count, a position or a duration: any of them may
 * change, and change length, without changing the error.
 */
export const NUMBERED_FAILURES: readonly FailureFixture[] = [
  {
    name: 'Jest toBe',
    failureType: 'Error',
    message: ({ numbers: [expected, received], checkout, line, column }) =>
      `expect(received).toBe(expected) // Object.is equality\n\nExpected: ${expected}\nReceived: ${received}\n` +
      `    at Object.<anonymous> (${checkout}/src/cart/total.test.ts:${line}:${column})\n` +
      `    at processTicksAndRejections (node:internal/process/task_queues:95:5)`,
  },
  {
    name: 'pytest comparison of numbers',
    failureType: 'AssertionError',
    message: ({ numbers: [left, right] }) => `AssertionError: assert ${left} == ${right}`,
  },
  {
    name: 'pytest comparison of strings',
    failureType: 'AssertionError',
    message: ({ numbers: [left, right], line }) =>
      `E   assert 'abc-${left}' == 'abc-${right}'\n` +
      `E     - abc-${right}\nE     + abc-${left}\n\ntests/test_orders.py:${line}: AssertionError`,
  },
  {
    name: 'Python traceback',
    failureType: 'requests.exceptions.ReadTimeout',
    message: ({ checkout, line, numbers: [, port, timeout] }) =>
      `Traceback (most recent call last):\n  File "${checkout}/tests/test_api.py", line ${line}, in test_create\n` +
      `    response = client.post(url, json=payload)\n` +
      `requests.exceptions.ReadTimeout: HTTPConnectionPool(host='localhost', port=${port}): Read timed out. (read timeout=${timeout / 1000})`,
  },
  {
    name: 'Surefire assertEquals',
    failureType: 'org.opentest4j.AssertionFailedError',
    message: ({ numbers: [expected, actual] }) => `expected: <${expected}> but was: <${actual}>`,
  },
  {
    name: 'JUnit 4 assertEquals',
    failureType: 'java.lang.AssertionError',
    message: ({ numbers: [expected, actual] }) => `expected:<${expected}> but was:<${actual}>`,
  },
  {
    name: 'Java NullPointerException with a stack trace',
    failureType: 'java.lang.NullPointerException',
    message: ({ numbers: [local], line }) =>
      `Cannot invoke "String.length()" because "<local${local}>" is null\n` +
      `\tat com.example.shop.CartService.total(CartService.java:${line})\n` +
      `\tat com.example.shop.CartServiceTest.totals(CartServiceTest.java:${line + 7})`,
  },
  {
    name: 'Go test',
    failureType: null,
    message: ({ testName, numbers: [got, want, , tenths], line }) =>
      `--- FAIL: ${testName} (${tenths / 100}s)\n    cart_test.go:${line}: got ${got}, want ${want}`,
  },
  {
    name: 'Playwright timeout',
    failureType: 'TimeoutError',
    message: ({ numbers: [, , timeout] }) =>
      `Timeout ${timeout}ms exceeded.\n=========================== logs ===========================\n` +
      `waiting for locator('#submit')\n============================================================`,
  },
  {
    name: 'Playwright toHaveText',
    failureType: 'Error',
    message: ({ numbers: [, , timeout, retries], checkout, line, column }) =>
      `expect(locator).toHaveText(expected) failed\n\nLocator: getByRole('button', { name: 'Save' })\n` +
      `Expected string: "Save"\nReceived string: "Saving…"\nTimeout: ${timeout}ms\n\nCall log:\n` +
      `  - Expect "toHaveText" with timeout ${timeout}ms\n  - waiting for getByRole('button', { name: 'Save' })\n` +
      `    ${retries} × locator resolved to <button type="submit">Saving…</button>\n` +
      `      - unexpected value "Saving…"\n\n    at ${checkout}/tests/checkout.spec.ts:${line}:${column}`,
  },
  {
    name: 'Playwright toBeVisible',
    failureType: 'Error',
    message: ({ numbers: [, , timeout], checkout, line, column }) =>
      `expect(locator).toBeVisible() failed\n\nLocator: getByRole('button', { name: 'Save' })\n` +
      `Expected: visible\nReceived: <element(s) not found>\nTimeout: ${timeout}ms\n\n` +
      `    at ${checkout}/tests/checkout.spec.ts:${line}:${column}`,
  },
  {
    name: 'a Windows path',
    failureType: 'PermissionError',
    message: ({ line, numbers: [, , , code] }) =>
      `C:\\actions-runner\\_work\\shop\\tests\\test_io.py:${line}: in test_write\n` +
      `PermissionError: [WinError ${code}] Access is denied`,
  },
];

/** Messages that also hold ids, addresses and timestamps, whose digits keep their shape. */
export const FAILURES_WITH_IDS: readonly FailureFixture[] = [
  {
    name: 'Jest toEqual',
    failureType: 'Error',
    message: ({ uuid, numbers: [total, , , quantity], checkout, line, column }) =>
      `expect(received).toEqual(expected) // deep equality\n\n- Expected  - 1\n+ Received  + 1\n\n` +
      `  Object {\n-   "id": "${uuid}",\n+   "id": null,\n    "quantity": ${quantity},\n    "total": ${total},\n  }\n` +
      `    at Object.<anonymous> (${checkout}/src/cart/cart.test.ts:${line}:${column})`,
  },
  {
    name: 'a log line with a timestamp, an id and an address',
    failureType: 'DatabaseError',
    message: ({ time, uuid, address, numbers: [, pid] }) =>
      `[${time.toISOString()}] order ${uuid} failed: deadlock detected (pid ${pid}, lock ${address})`,
  },
  {
    name: 'a snapshot pinned to a commit',
    failureType: 'SnapshotError',
    message: ({ commitSha, time }) =>
      `snapshot written ${time.toUTCString()} at commit ${commitSha} is obsolete`,
  },
];

/** Every entry is a different error: no two may share a signature. */
export const FAILURES: readonly FailureFixture[] = [...NUMBERED_FAILURES, ...FAILURES_WITH_IDS];
