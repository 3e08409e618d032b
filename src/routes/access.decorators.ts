import {
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import { type Caller, OPERATOR, organizationCaller } from '../common/caller.js';
import { ErrorEnvelopeDto } from '../common/errors/error-envelope.dto.js';
import type { Scope } from './scopes.js';
import type { ApiPrincipal } from './api-principal.js';

export const ACCESS_METADATA = 'access';
export const BEARER_SCHEME = 'bearer';
export const ADMIN_SCHEME = 'admin';
/** The console's session cookie, accepted wherever the operator token is. */
export const SESSION_SCHEME = 'session';

/** What a route needs; the global guard refuses any route that declares nothing. */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'internal' }
  | { kind: 'api-key'; scopes: Scope[] }
  | { kind: 'signed-link' };

const authErrors = [
  ApiResponse({
    status: 401,
    description: 'Key missing, malformed, unknown or deleted',
    type: ErrorEnvelopeDto,
  }),
  ApiResponse({
    status: 403,
    description: 'Basic plan (`plan_required`) or missing scope (`insufficient_scope`)',
    type: ErrorEnvelopeDto,
  }),
  ApiResponse({
    status: 429,
    description: 'Monthly or per-minute limit exceeded',
    type: ErrorEnvelopeDto,
  }),
];

/**
 * An API-key route that needs one of `scopes` (any one suffices). The document says so with
 * one security requirement per scope (OpenAPI 3.1 lets a bearer requirement list them): the
 * alternatives of a `security` array are ORed.
 */
export function RequireScopes(...scopes: [Scope, ...Scope[]]) {
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, { kind: 'api-key', scopes } satisfies AccessRule),
    ...scopes.map((scope) => ApiSecurity(BEARER_SCHEME, [scope])),
    ...authErrors,
  );
}

/** An API-key route that any valid key may call, whatever its scopes. */
export function AnyApiKey() {
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, { kind: 'api-key', scopes: [] } satisfies AccessRule),
    ApiBearerAuth(BEARER_SCHEME),
    ...authErrors,
  );
}

/** A route without authentication (probes, the discovery redirect). */
export function Public() {
  return SetMetadata(ACCESS_METADATA, { kind: 'public' } satisfies AccessRule);
}

/**
 * A route reached through a link that carries its own signature (an attachment's upload or
 * download, CONTRACT §15): no credential, counted against no limit. The handler checks the
 * signature before it reads a byte of the body; a link that does not match or has expired is
 * 401 `unauthorized` (the signature is the link's credential; CONTRACT §2's codes).
 */
export function SignedLink() {
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, { kind: 'signed-link' } satisfies AccessRule),
    ApiResponse({
      status: 401,
      description: 'The link’s signature does not match or it has expired',
      type: ErrorEnvelopeDto,
    }),
  );
}

const internalAuthErrors = [
  ApiResponse({
    status: 401,
    description: 'Operator token wrong, or no live console session',
    type: ErrorEnvelopeDto,
  }),
  ApiResponse({
    status: 403,
    description:
      'A change made with the console session without its CSRF token (`csrf_token_invalid`)',
    type: ErrorEnvelopeDto,
  }),
  ApiResponse({
    status: 429,
    description: 'Too many wrong operator tokens from this address (`Retry-After`)',
    type: ErrorEnvelopeDto,
  }),
];

/**
 * A route of the internal UI's API, authenticated with the operator token (ADMIN_TOKEN) or a
 * console session (the cookie, plus the CSRF token on a change).
 */
export function InternalApi() {
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, { kind: 'internal' } satisfies AccessRule),
    ApiBearerAuth(ADMIN_SCHEME),
    ApiSecurity(SESSION_SCHEME),
    ...internalAuthErrors,
  );
}

function principalOf(ctx: ExecutionContext): ApiPrincipal {
  const principal = ctx.switchToHttp().getRequest<Request>().principal;
  if (!principal)
    throw new Error('@Principal() or @CallerOrganizationId() on a route without API-key access');
  return principal;
}

/** The authenticated caller of an API-key route. */
export const Principal = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): ApiPrincipal => principalOf(ctx),
);

/** The id of the calling key's organization: the tenant every query of the route is scoped to. */
export const CallerOrganizationId = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string => principalOf(ctx).organization.id,
);

/**
 * Whom the route's service call acts for: the calling key's organization on an API-key route,
 * the operator on an internal route (`@InternalApi()`); any other route has no caller.
 */
export const RouteCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): Caller => {
  const rule =
    (Reflect.getMetadata(ACCESS_METADATA, ctx.getHandler()) as AccessRule | undefined) ??
    (Reflect.getMetadata(ACCESS_METADATA, ctx.getClass()) as AccessRule | undefined);
  if (rule?.kind === 'internal') return OPERATOR;
  if (rule?.kind === 'api-key') return organizationCaller(principalOf(ctx).organization.id);
  throw new Error('@RouteCaller() on a route that is neither an API-key nor an internal route');
});
