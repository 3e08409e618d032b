import { Body, Controller, Get, Headers, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { Principal, RequireScopes } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { AcceptsXml } from '../common/http/accepts-xml.js';
import { LargeBodiesTakeTurns } from '../common/http/large-body-turns.js';
import { ParseIdPipe } from '../common/ids.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import type { Page } from '../common/pagination/pagination.js';
import {
  IngestJsonDto,
  IngestQuery,
  IngestResponse,
  ResultQuery,
  ResultResponse,
  SubmitResultsDto,
  SubmittedResultsResponse,
} from './dto/result.dto.js';
import { parseIngest, parseSubmitResults } from './result-commands.js';
import { ResultsService } from './results.service.js';

@ApiTags('results')
@ApiExtraModels(IngestJsonDto)
@Controller()
export class ResultsController {
  constructor(private readonly results: ResultsService) {}

  @Post('testruns/:id/results')
  @RequireScopes('results:submit')
  @ApiBody({ type: SubmitResultsDto })
  @ApiCreatedResponse({ type: SubmittedResultsResponse })
  @ApiErrors(400, 404, 409, 413, 415, 422)
  submit(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('test_run')) id: string,
    @Body() body: unknown,
  ): Promise<SubmittedResultsResponse> {
    return this.results.submit(principal.organization.id, id, parseSubmitResults(body));
  }

  @Get('testruns/:id/results')
  @RequireScopes('results:read', 'testruns:read')
  @ApiPageResponse(
    ResultResponse,
    'Results of the run, newest first (each case’s current one unless include_history)',
  )
  @ApiErrors(400, 404)
  list(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('test_run')) id: string,
    @Query() query: ResultQuery,
  ): Promise<Page<ResultResponse>> {
    return this.results.list(principal.organization.id, id, query);
  }

  @Post('results/ingest')
  @RequireScopes('results:submit')
  @LargeBodiesTakeTurns()
  @AcceptsXml()
  @ApiBody({
    description: 'Results as JSON, or a JUnit XML report (parameters then go in the query)',
    schema: {
      oneOf: [
        { $ref: '#/components/schemas/IngestJsonDto' },
        { type: 'string', description: 'JUnit XML' },
      ],
    },
  })
  @ApiCreatedResponse({ type: IngestResponse })
  @ApiErrors(400, 409, 413, 415, 422)
  ingest(
    @Principal() principal: ApiPrincipal,
    @Headers('content-type') contentType: string | undefined,
    @Body() body: unknown,
    @Query() query: IngestQuery,
  ): Promise<IngestResponse> {
    return this.results.ingest(principal.organization.id, parseIngest(contentType, body, query));
  }
}
