import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AttachmentSettings } from '../../config/settings.js';
import {
  AttachmentStore,
  type DirectUpload,
  type ExpectedContent,
  type WriteOptions,
} from './attachment-store.js';
import { ContentCheck } from './content-check.js';
import { freeChunk } from './freed-chunks.js';
import { MultipartSink } from './multipart-sink.js';

/**
 * The size of a multipart upload's parts, and the largest content the service puts in one
 * PUT: S3 takes parts of 5 MiB and more, at most 10,000 of them (80 GiB at this size).
 */
export const PART_BYTES = 8 * 1024 * 1024;
const MAX_PARTS = 10_000;

/** The headers a presigned PUT is signed with, so the client must send them as they are. */
const SIGNED_HEADERS = new Set(['content-length', 'x-amz-checksum-sha256']);

/**
 * Content in an S3-compatible bucket. Clients PUT the bytes straight to the bucket through a
 * presigned URL whose signature covers their length and `x-amz-checksum-sha256`: the store
 * itself refuses bytes of another length or hash, and an object appears only whole. What the
 * service writes itself goes in one PUT up to `PART_BYTES`, and as a multipart upload above
 * (`MultipartSink`), its SHA-256 checked as it streams and the upload completed only if it
 * matched.
 */
export class S3Store extends AttachmentStore {
  /** Two parts (one filling, one being sent), and the chunks in flight. */
  readonly writeMemory = 2 * PART_BYTES + 1024 * 1024;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: NonNullable<AttachmentSettings['s3']>) {
    super();
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      // No checksum of the SDK's own choosing on presigned URLs: the one that counts is ours.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async directUpload(
    key: string,
    expected: ExpectedContent,
    expiresInSeconds: number,
  ): Promise<DirectUpload> {
    const checksum = Buffer.from(expected.sha256, 'hex').toString('base64');
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentLength: expected.size,
      ChecksumSHA256: checksum,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: expiresInSeconds,
      signableHeaders: SIGNED_HEADERS,
      unhoistableHeaders: SIGNED_HEADERS,
    });
    return {
      url,
      headers: { 'Content-Length': String(expected.size), 'x-amz-checksum-sha256': checksum },
    };
  }

  async write(
    key: string,
    body: Readable,
    expected: ExpectedContent,
    options: WriteOptions = {},
  ): Promise<void> {
    const freeChunks = options.freeChunks === true;
    if (expected.size > PART_BYTES) {
      // Parts grow past PART_BYTES only for content over 80 GiB (S3's 10,000 parts).
      const partBytes = Math.max(PART_BYTES, Math.ceil(expected.size / MAX_PARTS));
      const sink = new MultipartSink({
        client: this.client,
        bucket: this.bucket,
        key,
        partBytes,
        freeChunks,
      });
      await pipeline(body, new ContentCheck(expected), sink);
      return;
    }
    const whole = Buffer.allocUnsafe(expected.size);
    let filled = 0;
    await pipeline(body, new ContentCheck(expected), async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) {
        filled += chunk.copy(whole, filled);
        if (freeChunks) freeChunk(chunk);
      }
    });
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: whole,
        ContentLength: expected.size,
        ChecksumSHA256: Buffer.from(expected.sha256, 'hex').toString('base64'),
      }),
    );
  }

  async has(key: string, size: number): Promise<boolean> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength === size;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async read(key: string): Promise<Readable> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!(object.Body instanceof Readable)) throw new Error(`no body for ${key}`);
    return object.Body;
  }

  /**
   * Nothing to do here: a presigned PUT that fails leaves nothing, and a multipart upload the
   * service could not abort (its process killed) is removed by the bucket's lifecycle rule
   * (AbortIncompleteMultipartUpload after 1 day, docker/README.md), which S3 and the
   * S3-compatible stores apply without listing every upload.
   */
  removeUnfinished(): Promise<number> {
    return Promise.resolve(0);
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

function isNotFound(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404;
}
