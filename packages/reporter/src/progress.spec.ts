import { progressLine } from './progress.js';

describe('progress bar', () => {
  it('fills in proportion to the reports sent', () => {
    expect(progressLine(0, 4, 0, 8)).toBe('[--------] 0/4 reports, 0 results');
    expect(progressLine(1, 4, 50, 8)).toBe('[##------] 1/4 reports, 50 results');
    expect(progressLine(4, 4, 200, 8)).toBe('[########] 4/4 reports, 200 results');
  });
});
