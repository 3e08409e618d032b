import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { Transactions } from '../database/transactions.js';
import { requireOrganization } from '../tenants/require-organization.js';
import {
  CreateProjectDto,
  type InternalProjectResponse,
  ProjectResponse,
} from './dto/project.dto.js';
import { SetDefectUrlTemplateDto } from './dto/defect-url-template.dto.js';
import { CreateTestCaseDto, TestCaseQuery, TestCaseResponse } from './dto/test-case.dto.js';
import { Project } from './entities/project.entity.js';
import { TestCase } from './entities/test-case.entity.js';
import { type CaseSearch, ProjectsRepository } from './projects.repository.js';

export function toProjectResponse(project: Project): ProjectResponse {
  return {
    id: project.id,
    name: project.name,
    key: project.key,
    description: project.description,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}

function toInternalProjectResponse(project: Project): InternalProjectResponse {
  return {
    ...toProjectResponse(project),
    organization_id: project.organizationId,
    defect_url_template: project.defectUrlTemplate,
  };
}

export function toTestCaseResponse(testCase: TestCase): TestCaseResponse {
  return {
    id: testCase.id,
    project_id: testCase.projectId,
    title: testCase.title,
    automation_id: testCase.automationId,
    section: testCase.section,
    priority: testCase.priority,
    status: testCase.status,
    created_at: testCase.createdAt.toISOString(),
    updated_at: testCase.updatedAt.toISOString(),
  };
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly projects: ProjectsRepository,
  ) {}

  async list(organizationId: string, query: PaginationQuery): Promise<Page<ProjectResponse>> {
    const [projects, total] = await this.projects.page(organizationId, query);
    return toPage(projects.map(toProjectResponse), total, query);
  }

  /** Internal API: the organization named in the path must exist. */
  async listInOrganization(
    organizationId: string,
    query: PaginationQuery,
  ): Promise<Page<ProjectResponse>> {
    await requireOrganization(this.transactions, organizationId);
    return this.list(organizationId, query);
  }

  async createInOrganization(
    organizationId: string,
    dto: CreateProjectDto,
  ): Promise<ProjectResponse> {
    await requireOrganization(this.transactions, organizationId);
    return this.create(organizationId, dto);
  }

  async create(organizationId: string, dto: CreateProjectDto): Promise<ProjectResponse> {
    return this.transactions.run(async () => {
      const project = await this.projects.insert(organizationId, {
        name: dto.name,
        key: dto.key,
        description: dto.description ?? null,
      });
      // Keys are compared without regard to case: `web` beside `WEB` is a conflict.
      if (project === null)
        throw ApiError.conflict('duplicate_key', `A project with key "${dto.key}" already exists.`);
      return toProjectResponse(project);
    });
  }

  /** The project if the caller may see it; 404 otherwise (no existence leaks). */
  async find(caller: Caller, id: string): Promise<Project> {
    const project = await this.projects.find(caller, id);
    if (!project) throw ApiError.notFound('project');
    return project;
  }

  /** A project with its organization (404 if the caller may not see it). */
  async get(caller: Caller, id: string): Promise<InternalProjectResponse> {
    return toInternalProjectResponse(await this.find(caller, id));
  }

  /** Where the project's defects live (404 if the caller may not see the project). */
  async setDefectUrlTemplate(
    caller: Caller,
    id: string,
    dto: SetDefectUrlTemplateDto,
  ): Promise<InternalProjectResponse> {
    return this.transactions.run(async () => {
      const project = await this.projects.setDefectUrlTemplate(caller, id, dto.defect_url_template);
      if (!project) throw ApiError.notFound('project');
      return toInternalProjectResponse(project);
    });
  }

  /** `search`: what `q` matches, the title (public API) or also the automation id (console). */
  async listTestCases(
    caller: Caller,
    projectId: string,
    query: TestCaseQuery,
    search: CaseSearch = 'title',
  ): Promise<Page<TestCaseResponse>> {
    const { organizationId } = await this.find(caller, projectId);
    const [cases, total] = await this.projects.testCasePage(
      organizationId,
      projectId,
      query,
      search,
    );
    return toPage(cases.map(toTestCaseResponse), total, query);
  }

  async createTestCase(
    caller: Caller,
    projectId: string,
    dto: CreateTestCaseDto,
  ): Promise<TestCaseResponse> {
    return this.transactions.run(async () => {
      const project = await this.find(caller, projectId);
      if (dto.automation_id !== undefined) {
        if (await this.projects.automationIdTaken(projectId, dto.automation_id)) {
          throw ApiError.conflict(
            'duplicate_automation_id',
            `A test case with automation_id "${dto.automation_id}" already exists in this project.`,
          );
        }
      }
      const testCase = await this.projects.insertTestCase({
        organizationId: project.organizationId,
        projectId,
        title: dto.title,
        automationId: dto.automation_id ?? null,
        section: dto.section ?? null,
        priority: dto.priority ?? 'medium',
        status: 'active',
      });
      return toTestCaseResponse(testCase);
    });
  }
}
