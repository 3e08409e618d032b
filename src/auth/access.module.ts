import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { QuotaModule } from '../limits/quota.module.js';
import { RateLimitsModule } from '../limits/rate-limits.module.js';
import { AccessGuard } from './access.guard.js';
import { AdmissionService } from './admission.service.js';
import { ApiKeysModule } from './api-keys.module.js';
import { CredentialsBeforeBody } from './credentials-before-body.js';
import { OidcModule } from './oidc/oidc.module.js';
import { SessionsModule } from './sessions/sessions.module.js';

/**
 * Who may call the HTTP API (`APP_ROLE` api or all): the global access guard (keys, plans,
 * limits, scopes) and the check made before a body is read, over `ApiKeysModule`'s keys and
 * `SessionsModule`'s console sessions (opened with the token, or through `OidcModule`'s provider).
 */
@Module({
  imports: [ApiKeysModule, QuotaModule, RateLimitsModule, SessionsModule, OidcModule],
  providers: [
    { provide: APP_GUARD, useClass: AccessGuard },
    AdmissionService,
    CredentialsBeforeBody,
  ],
  exports: [CredentialsBeforeBody],
})
export class AccessModule {}
