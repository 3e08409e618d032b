import {
  applyDecorators,
  Controller,
  Delete,
  Get,
  HttpCode,
  Patch,
  Post,
  type Type,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, type ApiErrorStatus, ApiPageResponse } from '../common/openapi.decorators.js';
import { InternalApi, RequireScopes } from './access.decorators.js';
import type { Scope } from './scopes.js';

/*
 * One decorator per route of the usual kinds: its verb and path, who may call it, and what the
 * OpenAPI document says it answers. A route that answers otherwise (two success statuses, 202,
 * a body in another format) stacks the parts itself: `@Post`, `@RequireScopes`, `@ApiErrors`….
 */

/**
 * Who may call a route and how it can fail, besides the success response its decorator names.
 * `scopes`: the API-key scopes it needs (any one suffices); left out where the controller
 * declares access for every route (`@InternalApi()`), or where the route says `@AnyApiKey()`.
 * `errors`: the error statuses it answers with, authentication's aside.
 */
export interface RouteNeeds {
  scopes?: [Scope, ...Scope[]];
  errors: ApiErrorStatus[];
}

function needs({ scopes, errors }: RouteNeeds) {
  const access = scopes === undefined ? [] : [RequireScopes(...scopes)];
  return applyDecorators(...access, ApiErrors(...errors));
}

/** `GET path`: a page of `model` (`{data, pagination}`), described by `description`. */
export function ListRoute(path: string, model: Type, description: string, route: RouteNeeds) {
  return applyDecorators(Get(path), ApiPageResponse(model, description), needs(route));
}

/** `GET path`: one `model`. */
export function ReadRoute(path: string, model: Type, route: RouteNeeds) {
  return applyDecorators(Get(path), ApiOkResponse({ type: model }), needs(route));
}

/** `POST path`: creates a resource and answers 201 with it as `model`. */
export function CreateRoute(path: string, model: Type, route: RouteNeeds) {
  return applyDecorators(Post(path), ApiCreatedResponse({ type: model }), needs(route));
}

/** `PATCH path`: changes a resource and answers with it as `model`. */
export function UpdateRoute(path: string, model: Type, route: RouteNeeds) {
  return applyDecorators(Patch(path), ApiOkResponse({ type: model }), needs(route));
}

/** `DELETE path`: answers 204 with no body; `description` says what the deletion does. */
export function DeleteRoute(path: string, description: string, route: RouteNeeds) {
  return applyDecorators(
    Delete(path),
    HttpCode(204),
    ApiNoContentResponse({ description }),
    needs(route),
  );
}

/**
 * A controller of the internal UI's API: below `/internal/v1` (and `path`), authenticated with
 * the operator token, and left out of the published OpenAPI document.
 */
export function InternalController(path?: string) {
  return applyDecorators(
    ApiTags('internal'),
    InternalApi(),
    Controller(path === undefined ? 'internal/v1' : `internal/v1/${path}`),
  );
}
