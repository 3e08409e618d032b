import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AnyApiKey, Principal } from '../routes/access.decorators.js';
import type { ApiPrincipal } from '../routes/api-principal.js';
import { ListRoute } from '../routes/route.decorators.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { OrganizationResponse } from './dto/organization.dto.js';
import { OrganizationsService } from './organizations.service.js';

@ApiTags('organizations')
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @ListRoute('', OrganizationResponse, 'The key’s own organization', { errors: [400] })
  @AnyApiKey()
  list(
    @Principal() principal: ApiPrincipal,
    @Query() query: PaginationQuery,
  ): Page<OrganizationResponse> {
    return this.organizations.listForPrincipal(principal, query);
  }
}
