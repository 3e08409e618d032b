import { Module } from '@nestjs/common';
import { ApiKeysInternalController } from './api-keys.internal.controller.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';

/**
 * API keys: their internal API and their look-up by hash. Needs only PostgreSQL, so the CLI
 * uses it alone; the guard that admits requests with them is `AccessModule`'s.
 */
@Module({
  controllers: [ApiKeysInternalController],
  providers: [ApiKeysService, ApiKeysRepository],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
