import pg from 'pg';
import { ChannelListener } from '../../src/database/notifications.js';

const CHANNEL = `tm_listening_${process.pid}`;

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A NOTIFY sent before LISTEN takes effect is never heard: the owner of a listener is told
 * each time LISTEN takes effect, the first time too, so it can catch up (the live run pages'
 * first viewers joined while the listener connected).
 */
describe('ChannelListener', () => {
  it('says when LISTEN takes effect, first and after a reconnection, and hears NOTIFYs after it', async () => {
    const events: string[] = [];
    const listener = new ChannelListener(process.env.DATABASE_URL as string, CHANNEL, {
      notification: (payload) => events.push(`notification ${payload}`),
      listening: (first) => events.push(first ? 'listening first' : 'listening again'),
      reconnected: () => events.push('reconnected'),
    });
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      listener.start();
      await until(() => events.includes('listening first'));
      await client.query(`SELECT pg_notify($1, 'one')`, [CHANNEL]);
      await until(() => events.includes('notification one'));
      // Its connection dies: it connects again a second later and says so.
      await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`,
        [`LISTEN ${CHANNEL}`],
      );
      await until(() => events.includes('listening again'));
      expect(events).toEqual([
        'listening first',
        'notification one',
        'reconnected',
        'listening again',
      ]);
    } finally {
      await listener.stop();
      await client.end();
    }
  });
});
