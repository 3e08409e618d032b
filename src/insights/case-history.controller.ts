import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RouteCaller } from '../routes/access.decorators.js';
import { ListRoute } from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import type { Page } from '../common/pagination/pagination.js';
import { CaseHistoryService } from './case-history.service.js';
import { CaseHistoryItem, CaseHistoryQuery } from './dto/case-history.dto.js';

@ApiTags('results')
@Controller('testcases')
export class CaseHistoryController {
  constructor(private readonly history: CaseHistoryService) {}

  @ListRoute(
    ':id/results',
    CaseHistoryItem,
    'Every stored result of the case across runs, newest first (executed_at, else created_at)',
    { scopes: ['results:read'], errors: [400, 404] },
  )
  list(
    @RouteCaller() caller: Caller,
    @PathId('test_case') id: string,
    @Query() query: CaseHistoryQuery,
  ): Promise<Page<CaseHistoryItem>> {
    return this.history.list(caller, id, query);
  }
}
