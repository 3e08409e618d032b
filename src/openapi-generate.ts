import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { createApp } from './app.js';
import { settingsFromEnvironment } from './config/environment.js';
import { OpenApiDocument } from './openapi/openapi-document.provider.js';
import { buildInternalOpenApiDocument } from './openapi/openapi.document.js';

/**
 * Writes the OpenAPI documents the code describes to `openapi.json` (or the first path given)
 * and, when a second path is given, the internal API's to it (`internal-openapi.json`): the
 * checked-in copies that clients generate from (`npm run openapi`). The test suite fails when
 * a checked-in file and the code disagree.
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
  process.stdout.write(`wrote ${path}\n`);
  const internalPath = process.argv[3];
  if (internalPath !== undefined) {
    const internal = buildInternalOpenApiDocument(app);
    writeFileSync(internalPath, `${JSON.stringify(internal, null, 2)}\n`);
    process.stdout.write(`wrote ${internalPath}\n`);
  }
  await app.close();
}

generate().catch((error: unknown) => {
  process.stderr.write(`OpenAPI generation failed: ${String(error)}\n`);
  process.exit(1);
});
