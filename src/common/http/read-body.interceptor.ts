import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, type Observable, switchMap } from 'rxjs';
import { ACCEPTS_XML } from './accepts-xml.js';
import { BodyBudget } from './body-budget.js';
import { BODY_LISTS, type BodyListsRule } from './body-lists.js';
import { bodyCost, bodyKind, hasBody, readBody } from './body-parsing.middleware.js';
import { STREAMS_BODY } from './streams-body.js';
import { refuseBadText } from './text-checks.js';

/**
 * Reads the request's body, the first interceptor, so after the access guard has admitted the
 * request (key, plan, limits, scope: CONTRACT §1) and before anything else: a type the route
 * does not take is a 415 unread; then the body waits for its share of the memory budget
 * (`BodyBudget`), is read and parsed, and its text (and the query's) checked. A route that
 * streams its body (`@StreamsBody()`) reads it itself.
 */
@Injectable()
export class ReadBodyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly budget: BodyBudget,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(this.read(context)).pipe(switchMap(() => next.handle()));
  }

  private async read(context: ExecutionContext): Promise<void> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const handler = context.getHandler();
    if (hasBody(req) && this.reflector.get<boolean>(STREAMS_BODY, handler) !== true) {
      const kind = bodyKind(req, this.reflector.get<boolean>(ACCEPTS_XML, handler) === true);
      const res = http.getResponse<Response>();
      await this.budget.hold(res, bodyCost(req, kind));
      req.bodyLists = this.reflector.get<BodyListsRule | undefined>(BODY_LISTS, handler);
      await readBody(req, res, kind);
    }
    refuseBadText(req);
  }
}
