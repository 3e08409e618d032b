import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The console is served by the API process at /console (src/web-console/), from the root
 * build's dist/console. Asset names carry a content hash, so they are cached for good.
 * `npm run dev` proxies the API to a service on https://localhost:3000 (`npm run start:local`).
 */
export default defineConfig({
  root: here,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic' } },
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
