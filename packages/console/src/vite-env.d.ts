/// <reference types="vite/client" />

/** The API key scopes of internal-openapi.json, put in by the build (vite.config.ts). */
declare const __API_KEY_SCOPES__: readonly string[];
