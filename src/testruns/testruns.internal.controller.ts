import { Body } from '@nestjs/common';
import { CreateRoute, InternalController } from '../auth/route.decorators.js';
import { PathId } from '../common/ids.js';
import { TestRunFields, TestRunResponse } from './dto/test-run.dto.js';
import { TestRunsService } from './testruns.service.js';

@InternalController()
export class TestRunsInternalController {
  constructor(private readonly testRuns: TestRunsService) {}

  @CreateRoute('projects/:id/testruns', TestRunResponse, { errors: [400, 404, 409, 415, 422] })
  create(
    @PathId('project') projectId: string,
    @Body() dto: TestRunFields,
  ): Promise<TestRunResponse> {
    return this.testRuns.createFromUi(projectId, dto);
  }
}
