import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AttachmentStore,
  type DirectUpload,
  type ExpectedContent,
  type WriteOptions,
} from './attachment-store.js';
import { ContentCheck } from './content-check.js';
import { ContentFile } from './content-file.js';

/** Unfinished uploads, beside the content so a rename never crosses file systems. */
const INCOMING = '.incoming';

/**
 * Content as files under one folder (`ATTACHMENT_DIR`, which every replica must share). An
 * upload streams into a temporary file of its own and is renamed onto its key only once its
 * size and SHA-256 matched: readers never see part of a file, and two uploads of the same
 * content simply rename the same bytes in turn.
 */
export class FilesystemStore extends AttachmentStore {
  /** A write's chunks in flight: the socket's, the hash's and the file's buffers. */
  readonly writeMemory = 4 * 1024 * 1024;

  constructor(private readonly root: string) {
    super();
  }

  directUpload(): Promise<DirectUpload | null> {
    return Promise.resolve(null);
  }

  async write(
    key: string,
    body: Readable,
    expected: ExpectedContent,
    options: WriteOptions = {},
  ): Promise<void> {
    const target = this.pathOf(key);
    const temporary = join(this.root, INCOMING, `${randomUUID()}.part`);
    await mkdir(dirname(temporary), { recursive: true });
    const file = new ContentFile(temporary, options.freeChunks === true);
    try {
      await pipeline(body, new ContentCheck(expected), file);
      await mkdir(dirname(target), { recursive: true });
      await rename(temporary, target);
    } catch (error) {
      // A stream destroyed before its file was open still opens (creates) it, then closes:
      // removed only after that, or a refused upload would leave its part behind.
      // Its 'error' may come first: only 'close' says the file is shut.
      if (!file.closed) await new Promise((closed) => file.once('close', closed));
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async has(key: string, size: number): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).size === size;
    } catch {
      return false;
    }
  }

  read(key: string): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key));
    // Opening fails asynchronously: wait for it, so a missing file is an error here.
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', reject);
    });
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /**
   * Part files in `.incoming` last written before `before`: an upload removes its own when it
   * fails, so these are what a process killed mid-upload left (an upload lasts 120 s at most,
   * `REQUEST_TIMEOUT_MS`). A file another replica removed first is no error.
   */
  async removeUnfinished(before: Date): Promise<number> {
    const incoming = join(this.root, INCOMING);
    let names: string[];
    try {
      names = await readdir(incoming);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith('.part')) continue;
      const path = join(incoming, name);
      const written = await stat(path).then(
        (found) => found.mtime,
        () => null,
      );
      if (written === null || written >= before) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
  }

  private pathOf(key: string): string {
    // Keys are made by `contentKey` (uuid/hex-digits): nothing in them climbs out of the root.
    if (!/^[0-9a-f-]{36}\/[0-9a-f]{64}-\d+$/.test(key)) throw new Error(`bad content key ${key}`);
    return join(this.root, key);
  }
}
