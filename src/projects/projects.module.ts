import { Module } from '@nestjs/common';
import { CaseSearchRepository } from './case-search.repository.js';
import { CaseSearchService } from './case-search.service.js';
import { ProjectLookupModule } from './project-lookup.module.js';
import { ProjectsInternalController } from './projects.internal.controller.js';
import { ProjectsController } from './projects.controller.js';
import { ProjectsRepository } from './projects.repository.js';
import { ProjectsService } from './projects.service.js';

@Module({
  imports: [ProjectLookupModule],
  controllers: [ProjectsController, ProjectsInternalController],
  providers: [ProjectsService, ProjectsRepository, CaseSearchService, CaseSearchRepository],
  exports: [ProjectsService, ProjectLookupModule],
})
export class ProjectsModule {}
