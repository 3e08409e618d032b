import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AnyApiKey, Principal } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { OrganizationResponse } from './dto/organization.dto.js';
import { OrganizationsService } from './organizations.service.js';

@ApiTags('organizations')
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @AnyApiKey()
  @ApiOkResponse({ description: 'The key’s own organization' })
  list(
    @Principal() principal: ApiPrincipal,
    @Query() query: PaginationQuery,
  ): Page<OrganizationResponse> {
    return this.organizations.listForPrincipal(principal, query);
  }
}
