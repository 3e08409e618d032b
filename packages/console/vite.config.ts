import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The internal API's document, which the suite keeps in step with the service. */
function internalDocument(): { components: { schemas: Record<string, unknown> } } {
  return JSON.parse(
    readFileSync(fileURLToPath(new URL('../../internal-openapi.json', import.meta.url)), 'utf8'),
  );
}

/** The enum of the array property `property` of the schema `schema` in the document. */
function enumOf(schema: string, property: string): string[] {
  const found = (
    internalDocument().components.schemas[schema] as
      { properties?: Record<string, { items?: { enum?: string[] } }> } | undefined
  )?.properties?.[property]?.items?.enum;
  if (!Array.isArray(found) || found.length === 0) {
    throw new Error(`internal-openapi.json declares no values for ${schema}.${property}`);
  }
  return found;
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
  /*
   * What the console offers as choices, as the internal API's document declares them: the
   * scopes an API key can carry (`CreateApiKeyDto.scopes`) and the events a webhook can
   * subscribe to (`CreateWebhookFieldsDto.events`). The console keeps no list of its own.
   */
  define: {
    __API_KEY_SCOPES__: JSON.stringify(enumOf('CreateApiKeyDto', 'scopes')),
    __WEBHOOK_EVENTS__: JSON.stringify(enumOf('CreateWebhookFieldsDto', 'events')),
  },
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
