import { createHash } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { contentKey } from '../../src/attachments/storage/attachment-store.js';
import { PART_BYTES, S3Store } from '../../src/attachments/storage/s3-store.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';

const ORGANIZATION = '0190a5b2-0000-7000-8000-000000000002';
const CHUNK = 64 * 1024;

/** `size` bytes as a request body's chunks (each its own buffer), and how they describe themselves. */
function body(size: number, seed: number) {
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  for (let at = 0; at < size; at += CHUNK) {
    const chunk = Buffer.alloc(Math.min(CHUNK, size - at), (at / CHUNK + seed) % 251);
    hash.update(chunk);
    chunks.push(chunk);
  }
  return { chunks, expected: { size, sha256: hash.digest('hex') } };
}

/**
 * A loopback proxy in front of the S3-compatible server that notes each request's method, the
 * names of its query parameters and its checksum header: what the store asked of the bucket.
 */
async function recordingProxy(target: string) {
  const seen: { method: string; query: string[]; checksum: boolean }[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    seen.push({
      method: req.method ?? '',
      // The SDK names each operation in `x-id`: left out, the parameters that make the request.
      query: [...url.searchParams.keys()].filter((name) => name !== 'x-id').sort(),
      checksum: req.headers['x-amz-checksum-sha256'] !== undefined,
    });
    const upstream = request(url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('the S3 store writing content itself', () => {
  let s3: S3Server;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let store: S3Store;
  beforeAll(async () => {
    s3 = await startS3Server();
    proxy = await recordingProxy(s3.endpoint);
    store = new S3Store({
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: proxy.endpoint,
      forcePathStyle: true,
    });
  });
  beforeEach(() => proxy.seen.splice(0));
  afterAll(async () => {
    await proxy.close();
    await s3.close();
  });

  it('puts content over 8 MiB as a multipart upload, part by part, and it reads back whole', async () => {
    const { chunks, expected } = body(2 * PART_BYTES + 3 * CHUNK + 17, 1);
    const key = contentKey(ORGANIZATION, expected);
    await store.write(key, Readable.from(chunks), expected, { freeChunks: true });

    const calls = proxy.seen.map(({ method, query }) => `${method} ${query.join('&')}`);
    expect(calls).toEqual([
      'POST uploads',
      'PUT partNumber&uploadId',
      'PUT partNumber&uploadId',
      'PUT partNumber&uploadId',
      'POST uploadId',
    ]);
    expect(await store.has(key, expected.size)).toBe(true);
    expect(await sha256Of(await store.read(key))).toBe(expected.sha256);
    // Each chunk was freed once copied into its part.
    expect(chunks.every((chunk) => chunk.length === 0)).toBe(true);
  });

  it('never completes a multipart upload whose bytes do not match: it is aborted, nothing appears', async () => {
    const { chunks, expected } = body(PART_BYTES + CHUNK, 2);
    const wrong = { ...expected, sha256: 'f'.repeat(64) };
    const key = contentKey(ORGANIZATION, wrong);
    await expect(store.write(key, Readable.from(chunks), wrong)).rejects.toMatchObject({
      field: 'sha256',
    });

    const calls = proxy.seen.map(({ method, query }) => `${method} ${query.join('&')}`);
    expect(calls).not.toContain('POST uploadId');
    expect(calls.at(-1)).toBe('DELETE uploadId');
    expect(await store.has(key, wrong.size)).toBe(false);

    // Short of its size: refused as soon as the stream ends, aborted too.
    proxy.seen.splice(0);
    const short = body(PART_BYTES + CHUNK, 3);
    const shortKey = contentKey(ORGANIZATION, { ...short.expected, size: PART_BYTES + 2 * CHUNK });
    await expect(
      store.write(shortKey, Readable.from(short.chunks), {
        ...short.expected,
        size: PART_BYTES + 2 * CHUNK,
      }),
    ).rejects.toMatchObject({ field: 'size' });
    expect(proxy.seen.map((call) => call.method).at(-1)).toBe('DELETE');
  });

  it('puts content up to 8 MiB in one PUT that carries its SHA-256 for the store to check', async () => {
    const { chunks, expected } = body(3 * CHUNK + 5, 4);
    const key = contentKey(ORGANIZATION, expected);
    await store.write(key, Readable.from(chunks), expected, { freeChunks: true });

    expect(proxy.seen).toEqual([{ method: 'PUT', query: [], checksum: true }]);
    expect(await sha256Of(await store.read(key))).toBe(expected.sha256);
  });
});
