// `npm run start:local`: a local install's settings, made explicitly. Without a `.env`, the
// service starts with the safe defaults of a production start (internal API off, plain HTTP,
// no loopback webhooks); this writes `.env` from `.env.example` (a self-signed certificate,
// loopback webhooks) when there is none, with an operator token of its own, and says so. An
// existing `.env` is left alone.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

if (existsSync('.env')) {
  console.log('start:local: using the settings in .env');
} else {
  const token = randomBytes(24).toString('hex');
  const settings = readFileSync('.env.example', 'utf8').replace(
    /^ADMIN_TOKEN=.*$/m,
    `ADMIN_TOKEN=${token}`,
  );
  writeFileSync('.env', settings, { mode: 0o600 });
  console.log(
    'start:local: no .env here, so it was created from .env.example for a local run ' +
      '(HTTPS with a self-signed certificate for localhost, loopback webhooks allowed, and ' +
      'an operator token of its own for /internal/v1: ADMIN_TOKEN in .env). Edit .env to change them.',
  );
}
