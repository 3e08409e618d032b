import { Module } from '@nestjs/common';
import { ProjectsInternalController } from './projects.internal.controller.js';
import { ProjectsController } from './projects.controller.js';
import { ProjectsService } from './projects.service.js';

@Module({
  controllers: [ProjectsController, ProjectsInternalController],
  providers: [ProjectsService],
  exports: [ProjectsService],
})
export class ProjectsModule {}
