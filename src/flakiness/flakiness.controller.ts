import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Principal, RequireScopes } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { ParseIdPipe } from '../common/ids.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import { type Page, PaginationQuery } from '../common/pagination/pagination.js';
import { FlakyTestResponse, FlakyTestsQuery } from './dto/flaky-test.dto.js';
import { QuarantineDto, QuarantineEntryResponse } from './dto/quarantine.dto.js';
import { FlakyTestsService } from './flaky-tests.service.js';
import { QuarantineService } from './quarantine.service.js';

@ApiTags('flakiness')
@Controller('projects/:id')
export class FlakinessController {
  constructor(
    private readonly flakyTests: FlakyTestsService,
    private readonly quarantine: QuarantineService,
  ) {}

  @Get('flaky-tests')
  @RequireScopes('results:read')
  @ApiPageResponse(FlakyTestResponse, 'Flaky test cases, highest flip rate first')
  @ApiErrors(400, 404)
  listFlakyTests(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('project')) id: string,
    @Query() query: FlakyTestsQuery,
  ): Promise<Page<FlakyTestResponse>> {
    return this.flakyTests.list(principal.organization.id, id, query);
  }

  @Get('quarantine')
  @RequireScopes('results:read')
  @ApiPageResponse(QuarantineEntryResponse, 'Test cases in quarantine, newest first')
  @ApiErrors(400, 404)
  listQuarantine(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('project')) id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<QuarantineEntryResponse>> {
    return this.quarantine.list(principal.organization.id, id, query);
  }

  @Put('quarantine/:testCaseId')
  @RequireScopes('quarantine:manage')
  @ApiOkResponse({ type: QuarantineEntryResponse, description: 'The case’s quarantine entry' })
  @ApiErrors(400, 404, 415)
  putInQuarantine(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('project')) id: string,
    @Param('testCaseId', new ParseIdPipe('test_case')) testCaseId: string,
    @Body() dto: QuarantineDto,
  ): Promise<QuarantineEntryResponse> {
    return this.quarantine.quarantine(principal.organization.id, id, testCaseId, dto);
  }

  @Delete('quarantine/:testCaseId')
  @RequireScopes('quarantine:manage')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Taken out of quarantine' })
  @ApiErrors(404)
  takeOutOfQuarantine(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('project')) id: string,
    @Param('testCaseId', new ParseIdPipe('test_case')) testCaseId: string,
  ): Promise<void> {
    return this.quarantine.unquarantine(principal.organization.id, id, testCaseId);
  }
}
