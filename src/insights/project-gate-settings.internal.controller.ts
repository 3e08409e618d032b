import { Body } from '@nestjs/common';
import { InternalController, UpdateRoute } from '../routes/route.decorators.js';
import { PathId } from '../common/ids.js';
import {
  ProjectGateSettingsResponse,
  UpdateGateSettingsDto,
} from './dto/project-gate-settings.dto.js';
import { ProjectGateSettingsService } from './project-gate-settings.service.js';

@InternalController()
export class ProjectGateSettingsInternalController {
  constructor(private readonly settings: ProjectGateSettingsService) {}

  @UpdateRoute('projects/:id', ProjectGateSettingsResponse, { errors: [400, 404, 415] })
  update(
    @PathId('project') projectId: string,
    @Body() dto: UpdateGateSettingsDto,
  ): Promise<ProjectGateSettingsResponse> {
    return this.settings.update(projectId, dto);
  }
}
