import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LimitsModule } from '../limits/limits.module.js';
import { Organization } from '../organizations/entities/organization.entity.js';
import { AccessGuard } from './access.guard.js';
import { ApiKeysInternalController } from './api-keys.internal.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKey } from './entities/api-key.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey, Organization]), LimitsModule],
  controllers: [ApiKeysInternalController],
  providers: [ApiKeysService, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [ApiKeysService],
})
export class AuthModule {}
