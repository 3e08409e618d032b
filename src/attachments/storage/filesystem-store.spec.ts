import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { contentKey } from './attachment-store.js';
import { FilesystemStore } from './filesystem-store.js';

const ORGANIZATION = '0190a5b2-0000-7000-8000-000000000001';

/** Chunks as Node's HTTP parser gives a body's: each in an ArrayBuffer of its own. */
function ownChunks(count: number, size: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => Buffer.alloc(size, i + 1));
}

function expectedOf(chunks: Buffer[]) {
  const whole = Buffer.concat(chunks);
  return { whole, size: whole.length, sha256: createHash('sha256').update(whole).digest('hex') };
}

describe('the filesystem store', () => {
  let dir: string;
  let store: FilesystemStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tm-fs-store-'));
    store = new FilesystemStore(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("frees a request body's chunks as soon as they are on disk, and stores them whole", async () => {
    const chunks = ownChunks(8, 64 * 1024);
    const { whole, ...expected } = expectedOf(chunks);
    const key = contentKey(ORGANIZATION, expected);
    await store.write(key, Readable.from(chunks), expected, { freeChunks: true });

    expect(readFileSync(join(dir, key)).equals(whole)).toBe(true);
    // Released at once, not left to the garbage collector (which lets ~64 MB pile up).
    expect(chunks.map((chunk) => chunk.length)).toEqual(chunks.map(() => 0));
  });

  it("leaves the caller's chunks alone unless they are the store's, and shared buffers always", async () => {
    const mine = ownChunks(4, 1024);
    const first = expectedOf(mine);
    await store.write(contentKey(ORGANIZATION, first), Readable.from(mine), first);
    expect(mine.every((chunk) => chunk.length === 1024)).toBe(true);

    // Slices of one buffer (Node's pool of small buffers is one too) share their memory.
    const pool = Buffer.alloc(4096, 7);
    const slices = [pool.subarray(0, 2048), pool.subarray(2048)];
    const second = expectedOf(slices);
    const key = contentKey(ORGANIZATION, second);
    await store.write(key, Readable.from(slices), second, { freeChunks: true });
    expect(pool.length).toBe(4096);
    expect(readFileSync(join(dir, key)).equals(second.whole)).toBe(true);
  });

  it('leaves no part file behind when the bytes do not match', async () => {
    const chunks = ownChunks(2, 1024);
    const { whole: _whole, ...expected } = expectedOf(chunks);
    const wrong = { ...expected, sha256: '0'.repeat(64) };
    await expect(
      store.write(contentKey(ORGANIZATION, wrong), Readable.from(chunks), wrong, {
        freeChunks: true,
      }),
    ).rejects.toMatchObject({ field: 'sha256' });
    expect(readdirSync(join(dir, '.incoming'))).toEqual([]);
  });
});
