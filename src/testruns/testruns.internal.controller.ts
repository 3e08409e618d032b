import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { InternalApi } from '../auth/access.decorators.js';
import { ParseIdPipe } from '../common/ids.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { TestRunFields, TestRunResponse } from './dto/test-run.dto.js';
import { TestRunsService } from './testruns.service.js';

@ApiTags('internal')
@InternalApi()
@Controller('internal/v1')
export class TestRunsInternalController {
  constructor(private readonly testRuns: TestRunsService) {}

  @Post('projects/:id/testruns')
  @ApiCreatedResponse({ type: TestRunResponse })
  @ApiErrors(400, 404, 409, 415, 422)
  create(
    @Param('id', new ParseIdPipe('project')) projectId: string,
    @Body() dto: TestRunFields,
  ): Promise<TestRunResponse> {
    return this.testRuns.createFromUi(projectId, dto);
  }
}
