import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal, RequireScopes } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import { ParseIdPipe } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { ProjectResponse } from './dto/project.dto.js';
import { TestCaseQuery, TestCaseResponse } from './dto/test-case.dto.js';
import { ProjectsService } from './projects.service.js';

@ApiTags('projects')
@Controller('projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @RequireScopes('projects:read')
  @ApiPageResponse(ProjectResponse, 'The organization’s projects, newest first')
  @ApiErrors(400)
  list(
    @Principal() principal: ApiPrincipal,
    @Query() query: PaginationQuery,
  ): Promise<Page<ProjectResponse>> {
    return this.projects.list(principal.organization.id, query);
  }

  @Get(':id/testcases')
  @RequireScopes('projects:read')
  @ApiPageResponse(TestCaseResponse, 'Test cases of the project, newest first')
  @ApiErrors(400, 404)
  testCases(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('project')) id: string,
    @Query() query: TestCaseQuery,
  ): Promise<Page<TestCaseResponse>> {
    return this.projects.listTestCases(principal.organization.id, id, query);
  }
}
