// `npm run start:local`: a local install's settings, made explicitly. Without a `.env`, the
// service starts with the safe defaults of a production start (internal API off, plain HTTP,
// no loopback webhooks); this writes `.env` from `.env.example` (loopback webhooks, HTTPS) when
// there is none, with an operator token of its own and a certificate for localhost of its own
// in `.local/tls/`, and says so. The certificate is a file, not one made at each start, so that
// the reporter, curl or a browser can be told to trust it (NODE_EXTRA_CA_CERTS, --cacert). An
// existing `.env` is left alone.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generate } from 'selfsigned';

const TLS_DIR = resolve('.local/tls');
const CERT_FILE = resolve(TLS_DIR, 'localhost.crt');
const KEY_FILE = resolve(TLS_DIR, 'localhost.key');

/** A certificate for localhost and 127.0.0.1, valid for two years, and its key (0600). */
async function writeCertificate() {
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + 2 * 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  mkdirSync(TLS_DIR, { recursive: true, mode: 0o700 });
  writeFileSync(CERT_FILE, pems.cert);
  writeFileSync(KEY_FILE, pems.private, { mode: 0o600 });
}

if (existsSync('.env')) {
  console.log('start:local: using the settings in .env');
} else {
  await writeCertificate();
  const token = randomBytes(24).toString('hex');
  const settings = readFileSync('.env.example', 'utf8')
    .replace(/^ADMIN_TOKEN=.*$/m, `ADMIN_TOKEN=${token}`)
    .replace(/^TLS_SELF_SIGNED=true$/m, 'TLS_SELF_SIGNED=false')
    .replace(/^# TLS_CERT_FILE=.*$/m, `TLS_CERT_FILE=${CERT_FILE}`)
    .replace(/^# TLS_KEY_FILE=.*$/m, `TLS_KEY_FILE=${KEY_FILE}`);
  writeFileSync('.env', settings, { mode: 0o600 });
  console.log(
    'start:local: no .env here, so it was created from .env.example for a local run ' +
      `(HTTPS with a certificate for localhost made for this checkout: ${CERT_FILE}, which ` +
      'NODE_EXTRA_CA_CERTS or curl --cacert can trust; loopback webhooks allowed; and an ' +
      'operator token of its own for /internal/v1 and the console: ADMIN_TOKEN in .env). ' +
      'Edit .env to change them.',
  );
}
