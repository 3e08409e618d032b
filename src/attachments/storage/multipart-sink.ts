import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateMultipartUploadCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Writable } from 'node:stream';
import { freeChunk } from './freed-chunks.js';

/** Where a multipart upload goes, and in parts of how many bytes (S3: 5 MiB to 5 GiB). */
export interface MultipartTarget {
  client: S3Client;
  bucket: string;
  key: string;
  partBytes: number;
  /** The chunks are the sink's alone: each is freed once copied into its part. */
  freeChunks: boolean;
}

/**
 * A large content written to S3 as a multipart upload, in fixed-size parts: a part is filled
 * while the one before it is sent, so the sink holds two parts at most however large the
 * content (an S3 PUT of a stream needs its whole length up front and cannot be retried; a
 * part can). The object appears only when the stream ends (`_final` completes the upload),
 * and a stream that fails first (the bytes did not match, the client left) aborts it, so no
 * part lingers; a bucket's lifecycle rule removes what an abort never reached (a process
 * killed mid-upload) after a day.
 */
export class MultipartSink extends Writable {
  private uploadId: string | null = null;
  private filling: Buffer;
  private spare: Buffer | null = null;
  private filled = 0;
  /** The part being sent, if any: at most one at a time. */
  private sending: Promise<void> = Promise.resolve();
  private readonly parts: CompletedPart[] = [];
  private completed = false;

  constructor(private readonly target: MultipartTarget) {
    super({ highWaterMark: 64 * 1024 });
    this.filling = Buffer.allocUnsafe(target.partBytes);
  }

  override _construct(done: (error?: Error | null) => void): void {
    const { client, bucket, key } = this.target;
    client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key })).then((created) => {
      this.uploadId = created.UploadId ?? null;
      done(this.uploadId === null ? new Error(`no upload id for ${key}`) : null);
    }, done);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    this.take(chunk).then(() => done(), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.finish().then(() => done(), done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (this.uploadId === null || this.completed) return done(error);
    const { client, bucket, key } = this.target;
    const abort = new AbortMultipartUploadCommand({
      Bucket: bucket,
      Key: key,
      UploadId: this.uploadId,
    });
    // Best effort: what it leaves, the bucket's lifecycle rule removes after a day.
    this.sending
      .catch(() => undefined)
      .then(() => client.send(abort))
      .then(
        () => done(error),
        () => done(error),
      );
  }

  private async take(chunk: Buffer): Promise<void> {
    const { partBytes } = this.target;
    for (let offset = 0; offset < chunk.length;) {
      const copied = chunk.copy(this.filling, this.filled, offset);
      this.filled += copied;
      offset += copied;
      if (this.filled === partBytes) await this.sendFilled();
    }
    if (this.target.freeChunks) freeChunk(chunk);
  }

  /** Sends the part filled so far once the one before has gone, and fills the other buffer. */
  private async sendFilled(): Promise<void> {
    await this.sending;
    const body = this.filling.subarray(0, this.filled);
    const partNumber = this.parts.length + 1;
    this.parts.push({ PartNumber: partNumber });
    const { client, bucket, key } = this.target;
    const part = new UploadPartCommand({
      Bucket: bucket,
      Key: key,
      UploadId: this.uploadId ?? undefined,
      PartNumber: partNumber,
      Body: body,
      ContentLength: body.length,
    });
    const sent = client.send(part).then((answer) => {
      this.parts[partNumber - 1].ETag = answer.ETag;
    });
    // Observed here so a failure the stream never awaits (it was destroyed) is not unhandled.
    sent.catch(() => undefined);
    this.sending = sent;
    const next = this.spare ?? Buffer.allocUnsafe(this.target.partBytes);
    this.spare = this.filling;
    this.filling = next;
    this.filled = 0;
  }

  private async finish(): Promise<void> {
    if (this.filled > 0 || this.parts.length === 0) await this.sendFilled();
    await this.sending;
    const { client, bucket, key } = this.target;
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: this.uploadId ?? undefined,
        MultipartUpload: { Parts: this.parts },
      }),
    );
    this.completed = true;
  }
}
