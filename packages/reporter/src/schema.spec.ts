import { readFileSync } from 'node:fs';

describe("the reporter's typed client", () => {
  it('is generated from the checked-in openapi.json (the contract test checks that copy)', () => {
    expect(readFileSync('packages/reporter/src/schema.d.ts', 'utf8')).toBe(
      readFileSync('test/contract/schema.d.ts', 'utf8'),
    );
  });
});
