import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { Settings } from '../config/settings.js';
import { ACCESS_METADATA, type AccessRule } from '../routes/access.decorators.js';
import { AdmissionService } from './admission.service.js';
import { CredentialsBeforeBody } from './credentials-before-body.js';
import { OperatorTokenCheck } from './sessions/operator-token-check.js';
import { SessionsService } from './sessions/sessions.service.js';
import { unauthorized } from './unauthorized.js';

/**
 * The global guard: every route declares its access rule (`@RequireScopes`, `@AnyApiKey`,
 * `@InternalApi`, `@Public`) and a route that declares nothing is refused. API-key routes
 * are admitted by `AdmissionService` (key, plan, limits, scope), internal ones by the operator
 * token or a console session (`SessionsService`), signed links by their handler, public ones read a large body only with a
 * credential (`CredentialsBeforeBody`). The guard runs before a byte of the body is read
 * (`ReadBodyInterceptor` reads it next); validation (400) and the handler come after.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly settings: Settings,
    private readonly admission: AdmissionService,
    private readonly sessions: SessionsService,
    private readonly operatorToken: OperatorTokenCheck,
    private readonly credentials: CredentialsBeforeBody,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) {
      throw new Error(
        `${context.getClass().name}.${context.getHandler().name} declares no access rule`,
      );
    }
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (rule.kind === 'public') {
      await this.credentials.admitPublicBody(req);
      return true;
    }
    // The link's signature is the handler's to check, before it reads the body.
    if (rule.kind === 'signed-link') return true;
    if (rule.kind === 'internal') {
      await this.checkOperator(req);
      return true;
    }
    req.principal = await this.admission.admit(req, http.getResponse<Response>(), rule.scopes);
    return true;
  }

  /**
   * The operator: the token in `Authorization` (pipelines, the CLI, curl), else a console
   * session cookie (the browser, which never holds the token). A wrong token is counted
   * against the caller's address as a wrong sign-in is (429 past the allowance).
   */
  private async checkOperator(req: Request): Promise<void> {
    const token = this.settings.adminToken;
    // Without an operator token the internal API does not exist.
    if (token === null) throw ApiError.notFound();
    const header = req.get('authorization');
    if (header === undefined) return this.sessions.admit(req);
    if (!this.operatorToken.bearerMatches(req, header)) throw unauthorized();
  }
}
