import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AnyApiKey, Principal } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { OrganizationResponse } from './dto/organization.dto.js';
import { OrganizationsService } from './organizations.service.js';

@ApiTags('organizations')
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @ApiErrors(400)
  @AnyApiKey()
  @ApiPageResponse(OrganizationResponse, 'The key’s own organization')
  list(
    @Principal() principal: ApiPrincipal,
    @Query() query: PaginationQuery,
  ): Page<OrganizationResponse> {
    return this.organizations.listForPrincipal(principal, query);
  }
}
