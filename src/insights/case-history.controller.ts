import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal, RequireScopes } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { ParseIdPipe } from '../common/ids.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import type { Page } from '../common/pagination/pagination.js';
import { CaseHistoryService } from './case-history.service.js';
import { CaseHistoryItem, CaseHistoryQuery } from './dto/case-history.dto.js';

@ApiTags('results')
@Controller('testcases')
export class CaseHistoryController {
  constructor(private readonly history: CaseHistoryService) {}

  @Get(':id/results')
  @RequireScopes('results:read')
  @ApiPageResponse(
    CaseHistoryItem,
    'Every stored result of the case across runs, newest first (executed_at, else created_at)',
  )
  @ApiErrors(400, 404)
  list(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('test_case')) id: string,
    @Query() query: CaseHistoryQuery,
  ): Promise<Page<CaseHistoryItem>> {
    return this.history.list(principal.organization.id, id, query);
  }
}
