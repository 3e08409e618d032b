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
