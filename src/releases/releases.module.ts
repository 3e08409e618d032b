import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module.js';
import { ReleasesController } from './releases.controller.js';
import { ReleasesInternalController } from './releases.internal.controller.js';
import { ReleasesService } from './releases.service.js';

@Module({
  imports: [ProjectsModule],
  controllers: [ReleasesController, ReleasesInternalController],
  providers: [ReleasesService],
  exports: [ReleasesService],
})
export class ReleasesModule {}
