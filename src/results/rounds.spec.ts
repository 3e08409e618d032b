import { inRounds, ROUND_SIZE, roundsInCaseOrder } from './rounds.js';

describe('rounds', () => {
  it('cuts values into rounds of ROUND_SIZE, in their order', () => {
    const values = Array.from({ length: 2 * ROUND_SIZE + 1 }, (_, i) => i);
    expect([...inRounds(values)].map((round) => round.length)).toEqual([ROUND_SIZE, ROUND_SIZE, 1]);
    expect([...inRounds(values)].flat()).toEqual(values);
  });

  it("puts a batch's items in case order and never splits a case's items over two rounds", () => {
    // Case "b" straddles the first round's end: its items all go into the first round.
    const caseIds = [...Array.from({ length: ROUND_SIZE - 1 }, () => 'a'), 'c', 'b', 'b', 'b'];
    const rounds = [...roundsInCaseOrder(caseIds)];
    expect(rounds.map((round) => round.length)).toEqual([ROUND_SIZE + 2, 1]);
    expect(rounds[0].slice(-3)).toEqual([ROUND_SIZE, ROUND_SIZE + 1, ROUND_SIZE + 2]);
    expect(rounds[1]).toEqual([ROUND_SIZE - 1]);
  });
});
