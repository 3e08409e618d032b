import { createHash } from 'node:crypto';
import { MAX_AUTOMATION_ID, reportAutomationId } from './automation-id.js';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('reportAutomationId', () => {
  it('keeps an id of at most 1,000 characters as it is, spaces included', () => {
    const id = ` ${'a'.repeat(998)} `;
    expect(reportAutomationId(id)).toBe(id);
    expect(reportAutomationId('a.B.c')).toBe('a.B.c');
  });

  it('cuts a longer one to 983 characters, ~ and 16 hex characters of its SHA-256', () => {
    const id = `${'a'.repeat(990)}${'b'.repeat(20)}`;
    const cut = reportAutomationId(id);
    expect(cut).toHaveLength(MAX_AUTOMATION_ID);
    expect(cut).toBe(`${'a'.repeat(983)}~${sha(id).slice(0, 16)}`);
  });

  it('keeps two long ids that differ only at the end apart', () => {
    const [one, two] = [`${'x'.repeat(1500)}1`, `${'x'.repeat(1500)}2`];
    expect(reportAutomationId(one)).not.toBe(reportAutomationId(two));
    expect(reportAutomationId(one).slice(0, 983)).toBe(reportAutomationId(two).slice(0, 983));
  });

  it('hashes the UTF-8 and never splits a surrogate pair at the cut', () => {
    // The emoji's high half is the 983rd unit: the whole pair goes, 982 units are kept.
    const id = `${'a'.repeat(982)}\u{1F600}${'é'.repeat(100)}`;
    const cut = reportAutomationId(id);
    expect(cut).toBe(`${'a'.repeat(982)}~${sha(id).slice(0, 16)}`);
    expect(cut).not.toMatch(/\p{Cs}/u);
    // The emoji whole before the cut is kept whole.
    const before = `${'a'.repeat(981)}\u{1F600}${'z'.repeat(100)}`;
    expect(reportAutomationId(before).slice(0, 984)).toBe(`${'a'.repeat(981)}\u{1F600}~`);
  });
});
