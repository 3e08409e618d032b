import { inRounds, ROUND_SIZE, roundsInSlotOrder, slotKeys } from './rounds.js';

describe('rounds', () => {
  it('cuts values into rounds of ROUND_SIZE, in their order', () => {
    const values = Array.from({ length: 2 * ROUND_SIZE + 1 }, (_, i) => i);
    expect([...inRounds(values)].map((round) => round.length)).toEqual([ROUND_SIZE, ROUND_SIZE, 1]);
    expect([...inRounds(values)].flat()).toEqual(values);
  });

  it("puts a batch's items in case order and never splits a case's items over two rounds", () => {
    // Case "b" straddles the first round's end: its items all go into the first round.
    const caseIds = [...Array.from({ length: ROUND_SIZE - 1 }, () => 'a'), 'c', 'b', 'b', 'b'];
    const rounds = [...roundsInSlotOrder(caseIds)];
    expect(rounds.map((round) => round.length)).toEqual([ROUND_SIZE + 2, 1]);
    expect(rounds[0].slice(-3)).toEqual([ROUND_SIZE, ROUND_SIZE + 1, ROUND_SIZE + 2]);
    expect(rounds[1]).toEqual([ROUND_SIZE - 1]);
  });

  it('keys a slot by case, then configuration, so one case in two configurations is two slots', () => {
    const caseIds = ['b', 'a', 'a', 'a'];
    const items = [
      { configuration: null },
      { configuration: 'firefox' },
      { configuration: null },
      { configuration: 'chromium' },
    ];
    const slots = slotKeys(caseIds, items);
    expect(new Set(slots).size).toBe(4);
    // Case order first (a before b), then configuration ('' for none sorts first).
    expect([...roundsInSlotOrder(slots)]).toEqual([[2, 3, 1, 0]]);
  });
});
