import { Module } from '@nestjs/common';
import { ProjectLookup, TestCaseLookup } from './project-lookup.js';
import { ProjectsRepository } from './projects.repository.js';

/** Projects and test cases as other modules may read them; depends on nothing but the database. */
@Module({
  providers: [ProjectLookup, TestCaseLookup, ProjectsRepository],
  exports: [ProjectLookup, TestCaseLookup],
})
export class ProjectLookupModule {}
