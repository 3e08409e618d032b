import { Body } from '@nestjs/common';
import { InternalController, ReadRoute, UpdateRoute } from '../routes/route.decorators.js';
import { PathId } from '../common/ids.js';
import {
  ProjectGateSettingsResponse,
  UpdateGateSettingsDto,
} from './dto/project-gate-settings.dto.js';
import { ProjectGateSettingsService } from './project-gate-settings.service.js';

@InternalController()
export class ProjectGateSettingsInternalController {
  constructor(private readonly settings: ProjectGateSettingsService) {}

  /** The settings as `PATCH /internal/v1/projects/{id}` leaves them, for the settings page. */
  @ReadRoute('projects/:id/gate-settings', ProjectGateSettingsResponse, { errors: [404] })
  get(@PathId('project') projectId: string): Promise<ProjectGateSettingsResponse> {
    return this.settings.get(projectId);
  }

  @UpdateRoute('projects/:id', ProjectGateSettingsResponse, { errors: [400, 404, 415] })
  update(
    @PathId('project') projectId: string,
    @Body() dto: UpdateGateSettingsDto,
  ): Promise<ProjectGateSettingsResponse> {
    return this.settings.update(projectId, dto);
  }
}
