import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { ContentMismatch, type ExpectedContent } from './attachment-store.js';

/**
 * Passes bytes through while counting and hashing them: fails as soon as they outgrow the
 * expected size, and at the end when the size or the SHA-256 differ.
 */
export class ContentCheck extends Transform {
  private received = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly expected: ExpectedContent) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.expected.size) return done(new ContentMismatch('size'));
    this.hash.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.received !== this.expected.size) return done(new ContentMismatch('size'));
    if (this.hash.digest('hex') !== this.expected.sha256)
      return done(new ContentMismatch('sha256'));
    done();
  }
}
