import { Module } from '@nestjs/common';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { ReleaseLookupModule } from '../releases/release-lookup.module.js';
import { BuildLookupModule } from './build-lookup.module.js';
import { BuildQueue } from './build-queue.js';
import { BuildsInternalController } from './builds.internal.controller.js';
import { BuildsController } from './builds.controller.js';
import { BuildsRepository } from './builds.repository.js';
import { BuildsService } from './builds.service.js';

@Module({
  imports: [BuildLookupModule, ProjectLookupModule, ReleaseLookupModule],
  controllers: [BuildsController, BuildsInternalController],
  providers: [BuildsService, BuildsRepository, BuildQueue],
  exports: [BuildsService, BuildLookupModule],
})
export class BuildsModule {}
