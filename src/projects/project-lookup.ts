import { Injectable } from '@nestjs/common';
import { type Caller, OPERATOR, organizationCaller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { type DefectLink, defectLinks } from './defect-links.js';
import { TestCase } from './entities/test-case.entity.js';
import { ProjectsRepository } from './projects.repository.js';

/** What other modules may ask of projects. */
@Injectable()
export class ProjectLookup {
  constructor(private readonly projects: ProjectsRepository) {}

  /** Checks `id`, given in `field`, names a project of the organization (400 otherwise). */
  async require(organizationId: string, id: string, field: string): Promise<void> {
    if (!(await this.projects.find(organizationCaller(organizationId), id)))
      throw ApiError.unknownReference(field);
  }

  /**
   * Checks `id`, given in `field`, names a project of the organization (400 otherwise) and
   * counts a new run of it: returns the run's position among the project's runs.
   */
  async numberRun(organizationId: string, id: string, field: string): Promise<number> {
    const position = await this.projects.numberRun(organizationId, id);
    if (position === null) throw ApiError.unknownReference(field);
    return position;
  }

  /** Each defect id with its link through the project's defect URL template (none: no links). */
  async defectLinks(projectId: string, ids: readonly string[]): Promise<DefectLink[]> {
    if (ids.length === 0) return [];
    const project = await this.projects.find(OPERATOR, projectId);
    return defectLinks(project?.defectUrlTemplate ?? null, ids);
  }

  /** The organization of a project the caller may see (404 otherwise). */
  async organizationSeenBy(caller: Caller, id: string): Promise<string> {
    const project = await this.projects.find(caller, id);
    if (!project) throw ApiError.notFound('project');
    return project.organizationId;
  }

  /** The organization of a project named in an internal route's path (404 if none). */
  async organizationOf(id: string): Promise<string> {
    const project = await this.projects.find(OPERATOR, id);
    if (!project) throw ApiError.notFound('project');
    return project.organizationId;
  }
}

/** What other modules may ask of test cases. */
@Injectable()
export class TestCaseLookup {
  constructor(private readonly projects: ProjectsRepository) {}

  /** The test case if the caller may see it, with its organization (404 otherwise). */
  async find(caller: Caller, id: string): Promise<TestCase> {
    const testCase = await this.projects.testCase(caller, id);
    if (!testCase) throw ApiError.notFound('test_case');
    return testCase;
  }

  /** Whether `id` names a test case of the project. */
  inProject(projectId: string, id: string): Promise<boolean> {
    return this.projects.testCaseInProject(projectId, id);
  }

  /** The title and automation id of each of the project's test cases in `ids`, by id. */
  async names(
    projectId: string,
    ids: string[],
  ): Promise<Map<string, { title: string; automationId: string | null }>> {
    if (ids.length === 0) return new Map();
    const cases = await this.projects.testCaseNames(projectId, [...new Set(ids)]);
    return new Map(cases.map((c) => [c.id, { title: c.title, automationId: c.automationId }]));
  }
}
