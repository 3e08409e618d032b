import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { yieldToPendingIo, storeWhilePreparing } from './pipelined.js';

describe('storeWhilePreparing', () => {
  it('stores every round in order, preparing the next one meanwhile', async () => {
    const events: string[] = [];
    let n = 1;
    await storeWhilePreparing(
      1,
      async () => {
        events.push(`prepare ${n + 1}`);
        await yieldToPendingIo();
        return n < 3 ? ++n : null;
      },
      async (round) => {
        events.push(`store ${round} starts`);
        await yieldToPendingIo();
        await yieldToPendingIo();
        events.push(`store ${round} ends`);
      },
    );
    expect(events).toEqual([
      'store 1 starts',
      'prepare 2',
      'store 1 ends',
      'store 2 starts',
      'prepare 3',
      'store 2 ends',
      'store 3 starts',
      'prepare 4',
      'store 3 ends',
    ]);
  });

  it('ends with a store that fails while the next round is prepared, and the process lives on', () => {
    // In a process of its own (the built module, as the service runs it): an unhandled
    // rejection ends a Node process, which a test runner would hide.
    const module = pathToFileURL(resolve('dist/results/pipelined.js')).href;
    const script = `
      const { yieldToPendingIo, storeWhilePreparing } = await import(${JSON.stringify(module)});
      const stored = [];
      let n = 1;
      try {
        await storeWhilePreparing(
          1,
          async () => {
            for (let i = 0; i < 20; i++) await yieldToPendingIo();
            return n < 3 ? ++n : null;
          },
          async (round) => {
            if (round === 1) throw new Error('round 1 failed');
            stored.push(round);
          },
        );
      } catch (error) {
        process.stdout.write('rejected: ' + error.message + ' stored: ' + stored.length + '\\n');
      }`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe('rejected: round 1 failed stored: 0');
  });

  it('stores nothing when there is no round', async () => {
    const store = jest.fn(async () => undefined);
    await storeWhilePreparing(null, async () => null, store);
    expect(store).not.toHaveBeenCalled();
  });
});
