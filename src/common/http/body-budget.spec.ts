import { EventEmitter, once } from 'node:events';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import type { Settings } from '../../config/settings.js';
import { BodyBudget } from './body-budget.js';

const MIB = 1024 * 1024;

function budgetOf(megabytes: number, waitMs = 1_000): BodyBudget {
  return new BodyBudget({
    bodyMemoryBudgetBytes: megabytes * MIB,
    bodyBudgetWaitMs: waitMs,
  } as Settings);
}

/**
 * A real server whose one request is handed to `handle` once its client has gone: the guard
 * before the budget may take a database round trip, in which a client can close.
 */
async function requestOfGoneClient(handle: (res: ServerResponse) => Promise<void>): Promise<void> {
  let handled!: Promise<void>;
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    handled = once(res, 'close').then(() => handle(res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const client = request({
    port,
    host: '127.0.0.1',
    method: 'POST',
    headers: { 'content-length': MIB },
  });
  client.on('error', () => undefined);
  client.write('{');
  await new Promise((resolve) => setTimeout(resolve, 100));
  client.destroy();
  await new Promise((resolve) => setTimeout(resolve, 100));
  await handled;
  server.close();
}

describe('BodyBudget', () => {
  it('takes no share for a request whose connection closed before its turn', async () => {
    const budget = budgetOf(20);
    await requestOfGoneClient(async (res) => {
      await expect(budget.hold(res as unknown as Response, 16 * MIB)).rejects.toMatchObject({
        status: 503,
      });
    });
    expect(budget.inUse).toBe(0);
  });

  it('takes no place in the queue for a request whose connection closed before it waited', async () => {
    const budget = budgetOf(20);
    let holder!: ServerResponse;
    await requestOfGoneClient(async (res) => {
      holder = res;
      // The budget is full: the gone request would wait for a 'close' that came already.
      (budget as unknown as { held: number }).held = 20 * MIB;
      const started = Date.now();
      await expect(budget.hold(res as unknown as Response, 16 * MIB)).rejects.toMatchObject({
        status: 503,
      });
      // At once, not after the wait for a turn (1 s here).
      expect(Date.now() - started).toBeLessThan(500);
    });
    expect(holder).toBeDefined();
    expect((budget as unknown as { waiting: unknown[] }).waiting).toHaveLength(0);
  });

  it('gives back the share of a waiter whose client leaves in the turn its share is given', async () => {
    const budget = budgetOf(20);
    const holder = new LeavingResponse();
    const waiter = new LeavingResponse();
    await budget.hold(holder as unknown as Response, 20 * MIB);
    const waited = budget.hold(waiter as unknown as Response, 16 * MIB);
    // A proxy drops both connections at once: the holder's close gives the waiter its turn,
    // and the waiter's close comes before the code after its wait runs.
    process.nextTick(() => holder.leave());
    process.nextTick(() => waiter.leave());
    await expect(waited).rejects.toMatchObject({ status: 503 });
    expect(budget.inUse).toBe(0);
  });
});

/** A response whose connection closes when told (what `hold` reads of one). */
class LeavingResponse extends EventEmitter {
  closed = false;
  socket = { destroyed: false };
  leave(): void {
    this.closed = true;
    this.socket.destroyed = true;
    this.emit('close');
  }
}
