// Builds dist/cli.js: the reporter and openapi-fetch bundled into one ES module, so a pipeline
// step's Node resolves and loads one file instead of twenty and the package has no runtime
// dependencies (issue 17: a shard's start is most of the reporter's overhead). And
// dist/action.js, the GitHub Action's entry (action.yml), bundled the same way on its own. Type checking
// stays with tsc (`npm run build` runs it first; tsconfig.json emits nothing).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * Node's built-in modules through `process.getBuiltinModule` instead of `import`: importing one
 * as an ES module reads every export, which evaluates its lazy getters (`node:http` then loads
 * undici for `WebSocket`, `node:fs` its promises API and streams). On Node 24 that is ~30 ms of
 * CPU per process for the modules the reporter uses; a property is now read only when used.
 */
const builtinsOnUse = {
  name: 'builtins-on-use',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'builtin' }));
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts', action: 'src/action.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  plugins: [builtinsOnUse],
  // openapi-fetch's `new Headers()` and `instanceof FormData` without undici (src/web.ts).
  inject: ['src/bundle-globals.ts'],
  logLevel: 'warning',
});
