import type { INestApplication, Type } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { createApp } from '../../src/app.js';
import { loadSettings, Settings } from '../../src/config/settings.js';
import { ResponseValidationModule } from './response-validator.js';

export interface TestApp {
  app: INestApplication;
  settings: Settings;
  /** supertest agent over plain HTTP from loopback (a trusted proxy by default). */
  http: ReturnType<typeof supertest>;
  close(): Promise<void>;
}

/** The operator token the test apps are configured with. */
export const ADMIN_TOKEN = 'test-operator-token-0123456789';

/**
 * Settings of this test run (database and Redis prefix from the global setup) plus overrides.
 * Test apps serve the API only unless a test asks for the worker too (`APP_ROLE: 'all'`), so
 * most of them start no queue consumers.
 */
export function testSettings(overrides: Record<string, string> = {}): Settings {
  return loadSettings({ ...process.env, ADMIN_TOKEN, APP_ROLE: 'api', ...overrides });
}

/** Starts the real application (whole HTTP pipeline) against the run's database and Redis. */
export async function startApp(
  overrides: Record<string, string> = {},
  extraModules: Type[] = [],
): Promise<TestApp> {
  const settings = testSettings(overrides);
  const app = await createApp(settings, {
    extraModules: [ResponseValidationModule, ...extraModules],
  });
  await app.init();
  return {
    app,
    settings,
    http: supertest(app.getHttpServer()),
    close: () => app.close(),
  };
}

/** Starts `t` listening on a free loopback port, for clients that need a real socket. */
export async function listenOnLoopback(t: TestApp): Promise<number> {
  await t.app.listen(0, '127.0.0.1');
  return (t.app.getHttpServer().address() as AddressInfo).port;
}

/** Marks a request as arriving over HTTPS through the (trusted, loopback) proxy. */
export const HTTPS = { 'X-Forwarded-Proto': 'https' } as const;

/** Headers of an internal-API call. */
export const OPERATOR = { ...HTTPS, Authorization: `Bearer ${ADMIN_TOKEN}` } as const;

/** Headers of a public-API call with `key`. */
export function withKey(key: string): Record<string, string> {
  return { ...HTTPS, Authorization: `Bearer ${key}` };
}
