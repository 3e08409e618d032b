import { randomFillSync } from 'node:crypto';

/** The two ASCII hex digits of each byte value. */
const HEX = Array.from({ length: 256 }, (_, i) => {
  const digits = i.toString(16).padStart(2, '0');
  return [digits.charCodeAt(0), digits.charCodeAt(1)];
});
/** Random bytes are drawn for this many ids at a time. */
const POOL_IDS = 1024;
/** 6 bytes for the id's random tail, 4 for the counter's start in a new millisecond. */
const RANDOM_BYTES = 10;
const pool = Buffer.alloc(POOL_IDS * RANDOM_BYTES);
let pooled = POOL_IDS;
/** The 16 bytes of the id being made, then its text (made in one piece: no string joins). */
const bytes = new Uint8Array(16);
const text = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1');
/** Where each byte's two digits go in the text (dashes at 8, 13, 18 and 23). */
const AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
/** 26 bits of counter (12 of `rand_a`, 14 of `rand_b`) below the timestamp. */
const COUNTER_LIMIT = 2 ** 26;

/**
 * A generator of version 7 UUIDs (RFC 9562): 48 bits of Unix time in milliseconds, a 26-bit
 * counter, then 48 random bits. Its ids only ever increase (within a millisecond the counter
 * goes up from a random start in its lower half: RFC 9562 §6.2, method 1; when it runs out,
 * the next millisecond is borrowed), so the indexes on such ids take new rows at their right
 * edge, not on random pages all over them: a 20,000-row batch touches a few pages of each
 * index instead of thousands. `counterLimit` is smaller only in tests.
 */
export function createUuid7(counterLimit = COUNTER_LIMIT): (now?: number) => string {
  let lastMs = -1;
  let counter = 0;
  return (now = Date.now()) => {
    if (pooled === POOL_IDS) {
      randomFillSync(pool);
      pooled = 0;
    }
    const r = pooled++ * RANDOM_BYTES;
    if (now > lastMs) {
      lastMs = now;
      counter = pool.readUInt32BE(r + 6) % (counterLimit / 2);
    } else if (++counter === counterLimit) {
      lastMs++;
      counter = 0;
    }
    return format(lastMs, counter, r);
  };
}

/** The process's generator: ids made by one process only ever increase. */
export const uuid7 = createUuid7();

/** An id's text: its millisecond, its counter, and the pool's 6 random bytes at `r`. */
function format(lastMs: number, counter: number, r: number): string {
  const high = Math.floor(lastMs / 0x10000);
  bytes[0] = high >>> 24;
  bytes[1] = high >>> 16;
  bytes[2] = high >>> 8;
  bytes[3] = high;
  bytes[4] = lastMs >>> 8;
  bytes[5] = lastMs;
  bytes[6] = 0x70 | (counter >>> 22); // version 7, then the counter's top 4 bits
  bytes[7] = counter >>> 14;
  bytes[8] = 0x80 | ((counter >>> 8) & 0x3f); // variant 10, then 6 more
  bytes[9] = counter;
  for (let k = 0; k < 6; k++) bytes[10 + k] = pool[r + k];
  for (let k = 0; k < 16; k++) {
    const digits = HEX[bytes[k]];
    text[AT[k]] = digits[0];
    text[AT[k] + 1] = digits[1];
  }
  return text.toString('latin1');
}
