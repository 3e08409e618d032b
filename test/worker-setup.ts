// Runs before each test file, in its worker: points the file at its worker's own database
// and Redis prefix (made by test/global-setup.ts), so files running at once never share
// either. Apps, spawned processes and direct connections all read these variables.
const worker = process.env.JEST_WORKER_ID ?? '1';
const base = process.env.TEST_DATABASE_NAME;
if (base && !process.env.DATABASE_URL?.includes(`/${base}_w`)) {
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${base}_w${worker}`;
  process.env.DATABASE_URL = url.toString();
  process.env.REDIS_PREFIX = `${process.env.REDIS_PREFIX}_w${worker}`;
}
export {};
