import { Body, Controller, Param, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InternalApi } from '../auth/access.decorators.js';
import { ParseIdPipe } from '../common/ids.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import {
  ProjectGateSettingsResponse,
  UpdateGateSettingsDto,
} from './dto/project-gate-settings.dto.js';
import { ProjectGateSettingsService } from './project-gate-settings.service.js';

@ApiTags('internal')
@InternalApi()
@Controller('internal/v1')
export class ProjectGateSettingsInternalController {
  constructor(private readonly settings: ProjectGateSettingsService) {}

  @Patch('projects/:id')
  @ApiOkResponse({ type: ProjectGateSettingsResponse })
  @ApiErrors(400, 404, 415)
  update(
    @Param('id', new ParseIdPipe('project')) projectId: string,
    @Body() dto: UpdateGateSettingsDto,
  ): Promise<ProjectGateSettingsResponse> {
    return this.settings.update(projectId, dto);
  }
}
