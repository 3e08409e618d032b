import { Body, Query } from '@nestjs/common';
import { RouteCaller } from '../routes/access.decorators.js';
import {
  CreateRoute,
  InternalController,
  ListRoute,
  ReadRoute,
  UpdateRoute,
} from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { CaseSearchService } from './case-search.service.js';
import { CaseSearchQuery, FoundTestCaseResponse } from './dto/case-search.dto.js';
import { SetDefectUrlTemplateDto } from './dto/defect-url-template.dto.js';
import { CreateProjectDto, InternalProjectResponse, ProjectResponse } from './dto/project.dto.js';
import { CreateTestCaseDto, InternalTestCaseQuery, TestCaseResponse } from './dto/test-case.dto.js';
import { ProjectsService } from './projects.service.js';

@InternalController()
export class ProjectsInternalController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly caseSearch: CaseSearchService,
  ) {}

  @CreateRoute('organizations/:id/projects', ProjectResponse, { errors: [400, 404, 409, 415, 422] })
  create(
    @PathId('organization') organizationId: string,
    @Body() dto: CreateProjectDto,
  ): Promise<ProjectResponse> {
    return this.projects.createInOrganization(organizationId, dto);
  }

  @ListRoute(
    'organizations/:id/projects',
    ProjectResponse,
    'The organization’s projects, newest first',
    { errors: [400, 404] },
  )
  list(
    @PathId('organization') organizationId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<ProjectResponse>> {
    return this.projects.listInOrganization(organizationId, query);
  }

  @ReadRoute('projects/:id', InternalProjectResponse, { errors: [404] })
  get(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
  ): Promise<InternalProjectResponse> {
    return this.projects.get(caller, id);
  }

  @UpdateRoute('projects/:id/defect-url-template', InternalProjectResponse, {
    errors: [400, 404, 415],
  })
  setDefectUrlTemplate(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @Body() dto: SetDefectUrlTemplateDto,
  ): Promise<InternalProjectResponse> {
    return this.projects.setDefectUrlTemplate(caller, id, dto);
  }

  @CreateRoute('projects/:id/testcases', TestCaseResponse, { errors: [400, 404, 409, 415, 422] })
  createTestCase(
    @RouteCaller() caller: Caller,
    @PathId('project') projectId: string,
    @Body() dto: CreateTestCaseDto,
  ): Promise<TestCaseResponse> {
    return this.projects.createTestCase(caller, projectId, dto);
  }

  @ListRoute(
    'projects/:id/testcases',
    TestCaseResponse,
    'Test cases of the project, newest first; `q` searches titles and automation ids',
    { errors: [400, 404] },
  )
  testCases(
    @RouteCaller() caller: Caller,
    @PathId('project') projectId: string,
    @Query() query: InternalTestCaseQuery,
  ): Promise<Page<TestCaseResponse>> {
    return this.projects.listTestCases(caller, projectId, query, 'title_or_automation_id');
  }

  @ListRoute(
    'organizations/:id/testcases/search',
    FoundTestCaseResponse,
    'The organization’s test cases, in every project, whose title or automation id contains `q` (case-insensitive); by title',
    { errors: [400, 404] },
  )
  searchTestCases(
    @PathId('organization') organizationId: string,
    @Query() query: CaseSearchQuery,
  ): Promise<Page<FoundTestCaseResponse>> {
    return this.caseSearch.search(organizationId, query);
  }
}
