import { existsSync } from 'node:fs';
import { config as loadDotenv } from 'dotenv';
import { loadSettings, Settings } from './settings.js';

/**
 * The one place that reads the process environment: an `.env` file (development) first,
 * real environment variables winning over it.
 */
export function settingsFromEnvironment(): Settings {
  if (existsSync('.env')) loadDotenv({ path: '.env', quiet: true });
  return loadSettings(process.env);
}
