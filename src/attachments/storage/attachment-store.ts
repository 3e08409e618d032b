import type { Readable } from 'node:stream';

/** What an upload must be: the store refuses bytes of another length or SHA-256. */
export interface ExpectedContent {
  size: number;
  /** Lowercase hex. */
  sha256: string;
}

/** How `write` may treat the body it streams. */
export interface WriteOptions {
  /**
   * The body's chunks are the store's alone (a request body's): each may be freed as soon as
   * it is stored (`freeChunk`), and reads as empty afterwards.
   */
  freeChunks?: boolean;
}

/** Where a client sends an attachment's bytes itself (an object store's presigned URL). */
export interface DirectUpload {
  url: string;
  headers: Record<string, string>;
}

/**
 * Where attachments' bytes are kept (CONTRACT §15): a folder or an S3-compatible bucket, behind
 * one interface. Content is named by a key (`contentKey`) made of its organization, SHA-256 and
 * size, so identical bytes are kept once per organization. A key is only ever visible whole:
 * a half-finished upload leaves nothing under it.
 */
export abstract class AttachmentStore {
  /**
   * What one `write` holds in memory at most, in bytes: the share of the body budget an upload
   * through the service takes (`BodyBudget`), so concurrent uploads are bounded like bodies.
   */
  abstract readonly writeMemory: number;

  /**
   * A presigned URL for the client to PUT the bytes to, which makes the store check their
   * length and SHA-256; null when the bytes go through the service (`write`).
   */
  abstract directUpload(
    key: string,
    expected: ExpectedContent,
    expiresInSeconds: number,
  ): Promise<DirectUpload | null>;

  /**
   * Stores `body` under `key` as it streams in, never holding it whole; the key appears only
   * once every byte arrived and matched `expected` (else it rejects with `ContentMismatch` and
   * leaves nothing).
   */
  abstract write(
    key: string,
    body: Readable,
    expected: ExpectedContent,
    options?: WriteOptions,
  ): Promise<void>;

  /** Whether `key` holds content of `size` bytes. */
  abstract has(key: string, size: number): Promise<boolean>;

  /** The content under `key`, streamed. */
  abstract read(key: string): Promise<Readable>;

  /** Removes `key`; removing a key that is not there is no error (replicas may race). */
  abstract remove(key: string): Promise<void>;

  /**
   * Removes what writes that never finished left behind (a process killed mid-upload) and
   * untouched since `before`: how many it removed. Safe on several replicas at once.
   */
  abstract removeUnfinished(before: Date): Promise<number>;
}

/** The key of an organization's content of that SHA-256 and size. */
export function contentKey(organizationId: string, content: ExpectedContent): string {
  return `${organizationId}/${content.sha256}-${content.size}`;
}

/** Bytes that differ from what was announced: `field` is `size` or `sha256`. */
export class ContentMismatch extends Error {
  constructor(readonly field: 'size' | 'sha256') {
    super(`the uploaded bytes do not match the attachment's ${field}`);
    this.name = 'ContentMismatch';
  }
}
