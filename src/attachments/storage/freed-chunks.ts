/**
 * Frees a chunk's memory the moment the store is done with it, instead of at the next garbage
 * collection. Node's HTTP parser copies each body chunk (up to 64 KiB) into an `ArrayBuffer`
 * of its own, held outside V8's heap: V8 collects them only once about 64 MB of such memory
 * has piled up, so a single upload at disk speed raised the service's RSS by 56–68 MB however
 * few uploads ran (`npm run bench:attachments`). Detaching the buffer releases it at once.
 *
 * Only for chunks nothing else holds (a request body's, which only its upload reads): the
 * chunk reads as empty afterwards. A chunk that shares its buffer (Node's pool of small
 * buffers, a slice) is left to the garbage collector.
 */
export function freeChunk(chunk: Buffer): void {
  const buffer = chunk.buffer as Detachable;
  if (!(buffer instanceof ArrayBuffer) || buffer.detached) return;
  if (chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength) return;
  try {
    buffer.transfer(0);
  } catch {
    // A buffer its owner made non-detachable: the garbage collector frees it.
  }
}

/** ES2024's `ArrayBuffer` (Node 24 has it; the project's TypeScript library is older). */
interface Detachable extends ArrayBuffer {
  readonly detached: boolean;
  transfer(newLength?: number): ArrayBuffer;
}
