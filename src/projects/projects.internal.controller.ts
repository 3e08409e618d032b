import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { InternalApi } from '../auth/access.decorators.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import { ParseIdPipe } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { CreateProjectDto, ProjectResponse } from './dto/project.dto.js';
import { CreateTestCaseDto, TestCaseQuery, TestCaseResponse } from './dto/test-case.dto.js';
import { ProjectsService } from './projects.service.js';

@ApiTags('internal')
@InternalApi()
@Controller('internal/v1')
export class ProjectsInternalController {
  constructor(private readonly projects: ProjectsService) {}

  @Post('organizations/:id/projects')
  @ApiErrors(400, 404, 409, 415, 422)
  @ApiCreatedResponse({ type: ProjectResponse })
  create(
    @Param('id', new ParseIdPipe('organization')) organizationId: string,
    @Body() dto: CreateProjectDto,
  ): Promise<ProjectResponse> {
    return this.projects.createInOrganization(organizationId, dto);
  }

  @Get('organizations/:id/projects')
  @ApiErrors(400, 404)
  @ApiPageResponse(ProjectResponse, 'The organization’s projects, newest first')
  list(
    @Param('id', new ParseIdPipe('organization')) organizationId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<ProjectResponse>> {
    return this.projects.listInOrganization(organizationId, query);
  }

  @Post('projects/:id/testcases')
  @ApiErrors(400, 404, 409, 415, 422)
  @ApiCreatedResponse({ type: TestCaseResponse })
  createTestCase(
    @Param('id', new ParseIdPipe('project')) projectId: string,
    @Body() dto: CreateTestCaseDto,
  ): Promise<TestCaseResponse> {
    return this.projects.createTestCase(projectId, dto);
  }

  @Get('projects/:id/testcases')
  @ApiErrors(400, 404)
  @ApiPageResponse(TestCaseResponse, 'Test cases of the project, newest first')
  testCases(
    @Param('id', new ParseIdPipe('project')) projectId: string,
    @Query() query: TestCaseQuery,
  ): Promise<Page<TestCaseResponse>> {
    return this.projects.listTestCasesAnywhere(projectId, query);
  }
}
