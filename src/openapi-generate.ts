import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { createApp } from './app.js';
import { settingsFromEnvironment } from './config/environment.js';
import { OpenApiDocument } from './openapi/openapi-document.provider.js';

/**
 * Writes the OpenAPI document the code describes to `openapi.json` (or the path given), the
 * checked-in copy that clients generate from: `npm run openapi`. The test suite fails when the
 * checked-in file and the code disagree.
 */
async function generate(): Promise<void> {
  const settings = settingsFromEnvironment({
    APP_ROLE: 'api',
    LOG_LEVEL: 'error',
    TLS_SELF_SIGNED: 'false',
  });
  const app = await createApp(settings);
  const document = app.get(OpenApiDocument).get();
  const path = process.argv[2] ?? 'openapi.json';
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
  process.stdout.write(`wrote ${path}\n`);
}

generate().catch((error: unknown) => {
  process.stderr.write(`OpenAPI generation failed: ${String(error)}\n`);
  process.exit(1);
});
