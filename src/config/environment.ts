import { existsSync } from 'node:fs';
import { config as loadDotenv } from 'dotenv';
import { loadSettings, Settings } from './settings.js';

/**
 * The one place that reads the process environment. Real environment variables always win;
 * missing ones come from `.env` in the working directory when there is one, and otherwise
 * take CONTRACT §11's defaults, which are the safe ones: internal API off, no webhook host
 * exempt from the address check, plain HTTP (for a proxy that terminates TLS). Nothing falls
 * back to `.env.example`: a local install gets its `.env` explicitly, from `npm run
 * start:local` (`scripts/local-env.mjs`).
 */
export function settingsFromEnvironment(overrides: Record<string, string> = {}): Settings {
  if (existsSync('.env')) loadDotenv({ path: '.env', quiet: true });
  return loadSettings({ ...process.env, ...overrides });
}
