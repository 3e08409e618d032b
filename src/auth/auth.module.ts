import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { LimitsModule } from '../limits/limits.module.js';
import { AccessGuard } from './access.guard.js';
import { AdmissionService } from './admission.service.js';
import { CredentialsBeforeBody } from './credentials-before-body.js';
import { ApiKeysModule } from './api-keys.module.js';

/** The global access guard (keys, plans, limits, scopes) over the API-key service. */
@Module({
  imports: [ApiKeysModule, LimitsModule],
  providers: [
    { provide: APP_GUARD, useClass: AccessGuard },
    AdmissionService,
    CredentialsBeforeBody,
  ],
  exports: [CredentialsBeforeBody],
})
export class AuthModule {}
