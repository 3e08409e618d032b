// What the bundle's code (openapi-fetch's) gets for the globals `Headers` and `FormData`
// (build.mjs, esbuild's `inject`): the global ones would load undici (web.ts).
export { LightHeaders as Headers, NoFormData as FormData } from './web.js';
