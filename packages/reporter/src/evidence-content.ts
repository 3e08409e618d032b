import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { Readable } from 'node:stream';
import type { Evidence } from './evidence.js';

/**
 * An evidence's bytes as the create call describes them (CONTRACT §15: `size` and `sha256`),
 * read from disk a chunk at a time (a 256 MiB video is never held), and how to send them again.
 */
export interface Content {
  size: number;
  sha256: string;
  /** The bytes, streamed anew for each attempt of an upload. */
  open(): Readable;
}

/** Why an evidence is skipped: a warning, never a failure of the submit. */
export class SkippedEvidence {
  constructor(readonly reason: string) {}
}

/** The largest attachment the service takes by default (`ATTACHMENT_MAX_BYTES`, 256 MiB). */
export const MAX_ATTACHMENT_BYTES = 256 * 1024 * 1024;

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

/** SHA-256 and length of a file, streamed. */
async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * The content of an evidence, or why it is skipped: a file that is missing or not a file, or
 * bytes over `maxBytes` (checked before a byte is read).
 */
export async function contentOf(
  evidence: Evidence,
  maxBytes = MAX_ATTACHMENT_BYTES,
): Promise<Content | SkippedEvidence> {
  const { source } = evidence;
  if ('bytes' in source) {
    const { bytes } = source;
    if (bytes.length > maxBytes)
      return new SkippedEvidence(`${mib(bytes.length)}, over the ${mib(maxBytes)} limit`);
    return {
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      open: () => Readable.from([bytes]),
    };
  }
  const { file } = source;
  let stat;
  try {
    stat = await fs.stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return new SkippedEvidence(
      code === 'ENOENT' ? `no file ${file}` : `cannot read ${file} (${code})`,
    );
  }
  if (!stat.isFile()) return new SkippedEvidence(`${file} is not a file`);
  if (stat.size > maxBytes)
    return new SkippedEvidence(`${file} is ${mib(stat.size)}, over the ${mib(maxBytes)} limit`);
  try {
    const { size, sha256 } = await hashFile(file);
    // No more than was hashed, should the file grow meanwhile (the store refuses other bytes).
    const open = () =>
      size === 0
        ? Readable.from([])
        : createReadStream(file, { highWaterMark: 256 * 1024, start: 0, end: size - 1 });
    return { size, sha256, open };
  } catch (error) {
    return new SkippedEvidence(
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}
