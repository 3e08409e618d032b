import { Module } from '@nestjs/common';
import { BuildQueue } from './build-queue.js';
import { BuildsInternalController } from './builds.internal.controller.js';
import { BuildsController } from './builds.controller.js';
import { BuildsService } from './builds.service.js';

@Module({
  controllers: [BuildsController, BuildsInternalController],
  providers: [BuildsService, BuildQueue],
  exports: [BuildsService],
})
export class BuildsModule {}
