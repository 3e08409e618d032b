import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

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

/** What the browser loads as text: worth compressing (images and fonts are already). */
const COMPRESSIBLE = /\.(?:js|css|svg|json|html|txt)$/;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside a text file, each at its format's
 * highest level: compressed once here, not on every request (src/web-console/ serves the copy
 * the browser's Accept-Encoding asks for). A copy that would not be smaller is not written.
 */
function compressBeside(file: string): void {
  const content = readFileSync(file);
  const brotli = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  const gzip = gzipSync(content, { level: constants.Z_BEST_COMPRESSION });
  if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
  if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
}

/** Compressed copies of each text file of the built `assets/` (`compressBeside`). */
function precompressedAssets(): Plugin {
  let assets = '';
  return {
    name: 'tm-precompressed-assets',
    apply: 'build',
    configResolved(config) {
      assets = join(config.build.outDir, config.build.assetsDir);
    },
    writeBundle() {
      for (const name of readdirSync(assets)) {
        if (COMPRESSIBLE.test(name)) compressBeside(join(assets, name));
      }
    },
  };
}

/** Playwright's trace viewer as playwright-core ships it, built (the version the suite runs). */
const TRACE_VIEWER = join(
  dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')),
  'lib/vite/traceViewer',
);

/**
 * Copies Playwright's own trace viewer into the build's `trace/`, where the service serves it on
 * the console's origin (`/console/trace/index.html?trace=<a trace's signed link>`, with the
 * policy `src/web-console/trace-viewer.ts` gives it): a result's `trace.zip` opens in the
 * browser, read through its link by the viewer's service worker, never downloaded by hand. Its
 * UI mode (the test runner's, which needs a Playwright server) is left out.
 */
function playwrightTraceViewer(): Plugin {
  let outDir = '';
  return {
    name: 'tm-playwright-trace-viewer',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle() {
      const viewer = join(outDir, 'trace');
      cpSync(TRACE_VIEWER, viewer, {
        recursive: true,
        filter: (source) => !basename(source).startsWith('uiMode.'),
      });
      for (const name of readdirSync(viewer, { recursive: true, encoding: 'utf8' })) {
        if (COMPRESSIBLE.test(name)) compressBeside(join(viewer, name));
      }
    },
  };
}

/**
 * The console is served by the API process at /console (src/web-console/), from the root
 * build's dist/console. Asset names carry a content hash, so they are cached for good; each
 * text asset also gets a brotli and a gzip copy (`precompressedAssets`); Playwright's trace
 * viewer is copied beside it (`playwrightTraceViewer`). `npm run dev` proxies the API to a
 * service on https://localhost:3000 (`npm run start:local`).
 */
export default defineConfig({
  root: here,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [precompressedAssets(), playwrightTraceViewer()],
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
