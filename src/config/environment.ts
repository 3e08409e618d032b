import { existsSync } from 'node:fs';
import { config as loadDotenv } from 'dotenv';
import { loadSettings, Settings } from './settings.js';

/**
 * The one place that reads the process environment. Real environment variables always win;
 * missing ones come from `.env` in the working directory, or, when there is none, from
 * `.env.example`, so a fresh checkout runs locally (over HTTPS) with no setup. Images and
 * deployments ship neither file.
 */
export function settingsFromEnvironment(overrides: Record<string, string> = {}): Settings {
  const file = ['.env', '.env.example'].find((name) => existsSync(name));
  if (file) loadDotenv({ path: file, quiet: true });
  return loadSettings({ ...process.env, ...overrides });
}
