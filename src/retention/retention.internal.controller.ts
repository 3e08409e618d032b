import { Body } from '@nestjs/common';
import { PathId } from '../common/ids.js';
import { InternalController, ReadRoute, UpdateRoute } from '../routes/route.decorators.js';
import { RetentionResponse, UpdateRetentionDto } from './dto/retention.dto.js';
import { RetentionService } from './retention.service.js';

/** A project's retention: how long its runs are kept (the console's project settings). */
@InternalController()
export class RetentionInternalController {
  constructor(private readonly retention: RetentionService) {}

  @ReadRoute('projects/:id/retention', RetentionResponse, { errors: [400, 404] })
  read(@PathId('project') projectId: string): Promise<RetentionResponse> {
    return this.retention.read(projectId);
  }

  @UpdateRoute('projects/:id/retention', RetentionResponse, { errors: [400, 404, 415] })
  update(
    @PathId('project') projectId: string,
    @Body() dto: UpdateRetentionDto,
  ): Promise<RetentionResponse> {
    return this.retention.update(projectId, dto);
  }
}
