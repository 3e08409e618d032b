import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CallerOrganizationId, RouteCaller } from '../routes/access.decorators.js';
import { ListRoute } from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { ProjectResponse } from './dto/project.dto.js';
import { TestCaseQuery, TestCaseResponse } from './dto/test-case.dto.js';
import { ProjectsService } from './projects.service.js';

@ApiTags('projects')
@Controller('projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @ListRoute('', ProjectResponse, 'The organization’s projects, newest first', {
    scopes: ['projects:read'],
    errors: [400],
  })
  list(
    @CallerOrganizationId() organizationId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<ProjectResponse>> {
    return this.projects.list(organizationId, query);
  }

  @ListRoute(':id/testcases', TestCaseResponse, 'Test cases of the project, newest first', {
    scopes: ['projects:read'],
    errors: [400, 404],
  })
  testCases(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @Query() query: TestCaseQuery,
  ): Promise<Page<TestCaseResponse>> {
    return this.projects.listTestCases(caller, id, query);
  }
}
