import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The scopes an API key can carry, as the internal API's document declares them (the enum of
 * `CreateApiKeyDto.scopes` in internal-openapi.json, which the suite keeps in step with the
 * service): the console offers these and keeps no list of its own.
 */
function apiKeyScopes(): string[] {
  const document = JSON.parse(
    readFileSync(fileURLToPath(new URL('../../internal-openapi.json', import.meta.url)), 'utf8'),
  ) as {
    components: {
      schemas: { CreateApiKeyDto: { properties: { scopes: { items: { enum: string[] } } } } };
    };
  };
  const scopes = document.components.schemas.CreateApiKeyDto.properties.scopes.items.enum;
  if (!Array.isArray(scopes) || scopes.length === 0) {
    throw new Error('internal-openapi.json declares no API key scopes');
  }
  return scopes;
}

/**
 * The console is served by the API process at /console (src/web-console/), from the root
 * build's dist/console. Asset names carry a content hash, so they are cached for good.
 * `npm run dev` proxies the API to a service on https://localhost:3000 (`npm run start:local`).
 */
export default defineConfig({
  root: here,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic' } },
  define: { __API_KEY_SCOPES__: JSON.stringify(apiKeyScopes()) },
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      // TanStack's "use client" markers mean nothing without server components.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: {
    proxy: { '/internal': { target: 'https://localhost:3000', secure: false } },
  },
});
