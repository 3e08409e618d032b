import { Module } from '@nestjs/common';
import { ApiKeysInternalController } from './api-keys.internal.controller.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({
  controllers: [ApiKeysInternalController],
  providers: [ApiKeysService],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
