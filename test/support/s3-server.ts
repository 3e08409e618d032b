import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** The S3-compatible server the attachment tests start themselves (s3rver, on a free port). */
export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The settings that point the service's store at it. */
  settings: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts s3rver with one bucket. It takes presigned PUTs but checks neither their signature nor
 * `x-amz-checksum-sha256` (a real S3 or MinIO does): tests on it check the protocol, and that
 * the URLs sign the length and the checksum, not that the store refuses.
 */
export async function startS3Server(bucket = 'attachments'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'tm-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials, read by the AWS SDK from the environment as in production.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  return {
    endpoint,
    bucket,
    settings: {
      ATTACHMENT_STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
