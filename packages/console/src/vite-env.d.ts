/// <reference types="vite/client" />

/** The API key scopes of internal-openapi.json, put in by the build (vite.config.ts). */
declare const __API_KEY_SCOPES__: readonly string[];

/** The event types a webhook can subscribe to (and `*`), from internal-openapi.json. */
declare const __WEBHOOK_EVENTS__: readonly string[];
