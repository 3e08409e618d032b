import {
  listsOverflow,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  valueNestsDeeperThan,
} from './json-depth.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('JSON depth', () => {
  it('allows 64 levels of arrays and objects and refuses 65', () => {
    expect(nestsDeeperThan(Buffer.from(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(nestsDeeperThan(Buffer.from(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    expect(nestsDeeperThan(Buffer.from(objects(64)))).toBe(false);
    expect(nestsDeeperThan(Buffer.from(objects(65)))).toBe(true);
    expect(valueNestsDeeperThan(JSON.parse(nested(64)))).toBe(false);
    expect(valueNestsDeeperThan(JSON.parse(nested(65)))).toBe(true);
    expect(valueNestsDeeperThan(JSON.parse(objects(65)))).toBe(true);
  });

  it('counts siblings once: width is not depth', () => {
    const wide = JSON.stringify({ results: Array.from({ length: 5000 }, () => ({ a: [[1]] })) });
    expect(nestsDeeperThan(Buffer.from(wide))).toBe(false);
    expect(valueNestsDeeperThan(JSON.parse(wide))).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({
      message: `say \\"${'['.repeat(200)}\\" and "${'{'.repeat(100)}`,
    });
    expect(nestsDeeperThan(Buffer.from(text))).toBe(false);
    const trailing = JSON.stringify({ path: 'C:\\dir\\', deep: '[[[' }) + nested(2);
    expect(nestsDeeperThan(Buffer.from(trailing), 3)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(JSON.stringify(['\\', nested(70)])))).toBe(false);
  });

  it('finds a body too deep in the same pass that counts its lists', () => {
    expect(listsOverflow(Buffer.from(nested(MAX_JSON_DEPTH)), 5000, 10_002)).toBeNull();
    expect(listsOverflow(Buffer.from(nested(MAX_JSON_DEPTH + 1)), 5000, 10_002)).toBe('deep');
    const objects = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(listsOverflow(Buffer.from(objects), 5000, 10_002)).toBe('deep');
  });
});

describe('lists of a body that may be the command or a report', () => {
  const report = { items: 50, containers: 60 };
  const objects = (n: number) => Array.from({ length: n }, () => '{}').join(',');
  const scan = (json: string) => listsOverflow(Buffer.from(json), 10, 20, report);

  it('holds a body whose results is a list to the command’s bounds', () => {
    expect(scan(`{"results":[${objects(10)}]}`)).toBeNull();
    expect(scan(`{"results":[${objects(11)}]}`)).toBe('results');
    expect(scan(`{"results":[{"a":[${objects(25)}]}]}`)).toBe('list');
    expect(scan(`{"results":[],"x":[[${objects(9)}],[${objects(9)}]]}`)).toBe('containers');
  });

  it('holds it to them when results comes after the lists that outgrow them', () => {
    expect(scan(`{"suites":[${objects(30)}],"results":[]}`)).toBe('results');
    expect(scan(`{"x":[[${objects(9)}],[${objects(9)}]], "results" : []}`)).toBe('containers');
  });

  it('knows results spelled with escapes', () => {
    expect(scan(`{"s":[${objects(30)}],"res\\u0075lts":[]}`)).toBe('results');
  });

  it('holds any other body to the report’s bounds', () => {
    expect(scan(`{"config":{},"suites":[${objects(45)}]}`)).toBeNull();
    expect(scan(`[${objects(45)}]`)).toBeNull();
    expect(scan(`{"results":{"tool":{},"tests":[${objects(45)}]}}`)).toBeNull();
    expect(scan(`{"results":"[","suites":[${objects(45)}]}`)).toBeNull();
    expect(scan(`{"suites":[${objects(51)}]}`)).toBe('report_list');
    expect(scan(`{"suites":[[${objects(30)}],[${objects(30)}]]}`)).toBe('report_containers');
  });

  it('holds every body to the command’s bounds without report bounds', () => {
    expect(listsOverflow(Buffer.from(`{"suites":[${objects(11)}]}`), 10, 20)).toBe('results');
    expect(listsOverflow(Buffer.from(`[${objects(11)}]`), 10, 20)).toBe('list');
  });
});
