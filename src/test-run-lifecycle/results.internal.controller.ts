import { Body, Get, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  CreateRoute,
  InternalController,
  ListRoute,
  ReadRoute,
} from '../routes/route.decorators.js';
import { RouteCaller } from '../routes/access.decorators.js';
import type { Caller } from '../common/caller.js';
import { sendCsv } from '../common/http/csv-download.js';
import { PathId } from '../common/ids.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import type { Page } from '../common/pagination/pagination.js';
import {
  InternalResultQuery,
  InternalResultResponse,
  RunConfigurationsResponse,
  SubmitResultsDto,
  SubmittedResultsResponse,
} from '../results/dto/result.dto.js';
import { parseSubmitResults } from '../results/result-commands.js';
import { ResultsPerCallAtMost } from '../results/result-items.js';
import { ResultsExportService } from '../results/results-export.service.js';
import { ResultsService } from '../results/results.service.js';
import { SubmitResults } from './submit-results.usecase.js';

@InternalController()
export class ResultsInternalController {
  constructor(
    private readonly results: ResultsService,
    private readonly submitResults: SubmitResults,
    private readonly resultsExport: ResultsExportService,
  ) {}

  /** The console's "Export CSV": every current result of the run, streamed (issue 31). */
  @Get('testruns/:id/results/export')
  @ApiOkResponse({
    description:
      'The run’s current results as CSV (RFC 4180, UTF-8 with a byte-order mark, a header line; text cells starting with =, +, -, @ prefixed with an apostrophe), one line per slot in its case’s order, streamed a page at a time',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiErrors(404)
  async exportCsv(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Res() response: Response,
  ): Promise<void> {
    await sendCsv(response, await this.resultsExport.runResults(caller, id));
  }

  @ListRoute(
    'testruns/:id/results',
    InternalResultResponse,
    'Results of the run, newest first or failed and blocked first (`order`; each case’s current one unless include_history), each with its test case’s title and automation id and whether the case is flaky or in quarantine; `q` searches the title and automation id',
    { errors: [400, 404] },
  )
  list(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Query() query: InternalResultQuery,
  ): Promise<Page<InternalResultResponse>> {
    return this.results.listWithCases(caller, id, query);
  }

  /** What the console's configuration filter offers: each configuration of the run's results. */
  @ReadRoute('testruns/:id/configurations', RunConfigurationsResponse, { errors: [404] })
  configurations(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
  ): Promise<RunConfigurationsResponse> {
    return this.results.configurations(caller, id);
  }

  /** As `POST /api/v1/testruns/{id}/results`, checked by the same parser, by the operator. */
  @CreateRoute('testruns/:id/results', SubmittedResultsResponse, {
    errors: [400, 404, 409, 413, 415, 422],
  })
  @ResultsPerCallAtMost()
  @ApiBody({ type: SubmitResultsDto })
  submit(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Body() body: unknown,
  ): Promise<SubmittedResultsResponse> {
    return this.submitResults.execute({ caller, testRunId: id, ...parseSubmitResults(body) });
  }
}
