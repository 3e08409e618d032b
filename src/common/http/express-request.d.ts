import 'express-serve-static-core';
import type { ApiPrincipal } from '../../routes/api-principal.js';
import type { BodyListsRule } from './body-lists.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the request-id middleware for every request. */
    id: string;
    /** The authenticated API key and its organization, set by the access guard. */
    principal?: ApiPrincipal;
    /** SHA-256 over method, URL and the body as received, when an Idempotency-Key came. */
    fingerprint?: string;
    /** Set by the body parser when a JSON body may hold a NUL or an unpaired surrogate. */
    bodyMayHoldBadText?: boolean;
    /** Set by the body parser when a JSON body's depth is checked once parsed (not UTF-8). */
    bodyNeedsDepthCheck?: boolean;
    /** The route's `@ListsInBodyAtMost`, checked on the raw JSON before it is parsed. */
    bodyLists?: BodyListsRule;
  }
}
