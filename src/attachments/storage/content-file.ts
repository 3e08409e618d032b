import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { freeChunk } from './freed-chunks.js';

/**
 * A new file (`wx`: never one that exists) written chunk by chunk as a stream. With
 * `freeChunks`, each chunk's memory is released as soon as it is on disk (`freeChunk`), so an
 * upload costs the service its few chunks in flight, not whatever the garbage collector has
 * not reached yet.
 */
export class ContentFile extends Writable {
  private handle: FileHandle | null = null;

  constructor(
    private readonly path: string,
    private readonly freeChunks: boolean,
  ) {
    super({ highWaterMark: 64 * 1024 });
  }

  override _construct(done: (error?: Error | null) => void): void {
    open(this.path, 'wx').then((handle) => {
      this.handle = handle;
      done();
    }, done);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    this.writeWhole(chunk).then(() => {
      if (this.freeChunks) freeChunk(chunk);
      done();
    }, done);
  }

  override _final(done: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = null;
    (handle?.close() ?? Promise.resolve()).then(() => done(), done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = null;
    if (handle === null) return done(error);
    handle.close().then(
      () => done(error),
      () => done(error),
    );
  }

  /** A file system may take part of a write: the rest follows until the chunk is written. */
  private async writeWhole(chunk: Buffer): Promise<void> {
    const handle = this.handle as FileHandle;
    for (let offset = 0; offset < chunk.length;) {
      const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset, null);
      offset += bytesWritten;
    }
  }
}
