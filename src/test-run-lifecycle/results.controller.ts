import { Body, Controller, Headers, Query } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { CallerOrganizationId, RouteCaller } from '../routes/access.decorators.js';
import { CreateRoute, ListRoute } from '../routes/route.decorators.js';
import { AcceptsXml } from '../common/http/accepts-xml.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import type { Page } from '../common/pagination/pagination.js';
import {
  IngestJsonDto,
  IngestQuery,
  IngestResponse,
  ResultQuery,
  ResultResponse,
  SubmitResultsDto,
  SubmittedResultsResponse,
} from '../results/dto/result.dto.js';
import { parseIngest, parseSubmitResults } from '../results/result-commands.js';
import { ResultsPerCallAtMost } from '../results/result-items.js';
import { ResultsService } from '../results/results.service.js';
import { IngestResults } from './ingest-results.usecase.js';
import { SubmitResults } from './submit-results.usecase.js';

@ApiTags('results')
@ApiExtraModels(IngestJsonDto)
@Controller()
export class ResultsController {
  constructor(
    private readonly results: ResultsService,
    private readonly submitResults: SubmitResults,
    private readonly ingestResults: IngestResults,
  ) {}

  @CreateRoute('testruns/:id/results', SubmittedResultsResponse, {
    scopes: ['results:submit'],
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

  @ListRoute(
    'testruns/:id/results',
    ResultResponse,
    'Results of the run, newest first (each case’s current one unless include_history)',
    { scopes: ['results:read', 'testruns:read'], errors: [400, 404] },
  )
  list(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Query() query: ResultQuery,
  ): Promise<Page<ResultResponse>> {
    return this.results.list(caller, id, query);
  }

  @CreateRoute('results/ingest', IngestResponse, {
    scopes: ['results:submit'],
    errors: [400, 409, 413, 415, 422],
  })
  @ResultsPerCallAtMost({ orReport: true })
  @AcceptsXml()
  @ApiBody({
    description:
      'Results as the JSON command (an object whose `results` is an array; its parameters in the body), or a report a test runner wrote, its parameters then in the query, recognised from the document or named by `format`: an XML report (JUnit, VSTest TRX, NUnit 3, xUnit.net v2 or Robot Framework output.xml, by the root element), or a JSON report: Playwright’s JSON reporter (`config` and `suites`), CTRF (`results.tool` and `results.tests`), Jest’s or Vitest’s `--json` (`testResults`) or Cucumber JSON (an array of features with `elements`). A report is bounded by the body’s 10 MiB, not by the command’s 5,000 results',
    schema: {
      oneOf: [
        { $ref: '#/components/schemas/IngestJsonDto' },
        {
          type: 'object',
          description:
            'A JSON report: Playwright (`config`, `suites`), CTRF (`results`) or Jest/Vitest (`testResults`)',
          additionalProperties: true,
        },
        {
          type: 'array',
          description: 'A Cucumber JSON report: features with `elements`',
          items: { type: 'object', additionalProperties: true },
        },
        {
          type: 'string',
          description:
            'An XML report: JUnit <testsuites>/<testsuite>, TRX <TestRun>, NUnit 3 <test-run>, xUnit.net v2 <assemblies> or Robot Framework <robot> (versions 3–7)',
        },
      ],
    },
  })
  ingest(
    @CallerOrganizationId() organizationId: string,
    @Headers('content-type') contentType: string | undefined,
    @Body() body: unknown,
    @Query() query: IngestQuery,
  ): Promise<IngestResponse> {
    return this.ingestResults.execute({
      organizationId,
      ingest: parseIngest(contentType, body, query),
    });
  }
}
