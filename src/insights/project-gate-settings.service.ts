import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { Transactions } from '../database/transactions.js';
import {
  ProjectGateSettingsResponse,
  UpdateGateSettingsDto,
} from './dto/project-gate-settings.dto.js';
import { type GateSettingsRow, InsightsRepository } from './insights.repository.js';

function toGateSettingsResponse(project: GateSettingsRow): ProjectGateSettingsResponse {
  return {
    id: project.id,
    name: project.name,
    key: project.key,
    description: project.description,
    gate_min_pass_rate: project.gate_min_pass_rate,
    gate_forbid_missing_tests: project.gate_forbid_missing_tests,
    gate_min_tests: project.gate_min_tests,
    created_at: project.created_at.toISOString(),
    updated_at: project.updated_at.toISOString(),
  };
}

/** The quality gate's settings of a project, read and changed through the internal API. */
@Injectable()
export class ProjectGateSettingsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: InsightsRepository,
  ) {}

  async get(projectId: string): Promise<ProjectGateSettingsResponse> {
    const project = await this.repository.projectGateSettings(projectId);
    if (!project) throw ApiError.notFound('project');
    return toGateSettingsResponse(project);
  }

  async update(
    projectId: string,
    dto: UpdateGateSettingsDto,
  ): Promise<ProjectGateSettingsResponse> {
    return this.transactions.run(async () => {
      const project = await this.repository.updateGateSettings(
        projectId,
        dto.gate_min_pass_rate,
        dto.gate_forbid_missing_tests,
        dto.gate_min_tests,
      );
      if (!project) throw ApiError.notFound('project');
      return toGateSettingsResponse(project);
    });
  }
}
