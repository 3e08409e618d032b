import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InternalApi } from '../auth/access.decorators.js';
import { CreateRoute, ListRoute, ReadRoute, UpdateRoute } from '../auth/route.decorators.js';
import { PathId } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import {
  CreateOrganizationDto,
  OrganizationResponse,
  UpdateOrganizationDto,
} from './dto/organization.dto.js';
import { OrganizationsService } from './organizations.service.js';

@ApiTags('internal')
@InternalApi()
@Controller('internal/v1/organizations')
export class OrganizationsInternalController {
  constructor(private readonly organizations: OrganizationsService) {}

  @CreateRoute('', OrganizationResponse, { errors: [400, 409, 415, 422] })
  create(@Body() dto: CreateOrganizationDto): Promise<OrganizationResponse> {
    return this.organizations.create(dto);
  }

  @ListRoute('', OrganizationResponse, 'Every organization, newest first', { errors: [400] })
  list(@Query() query: PaginationQuery): Promise<Page<OrganizationResponse>> {
    return this.organizations.list(query);
  }

  @ReadRoute(':id', OrganizationResponse, { errors: [400, 404] })
  get(@PathId('organization') id: string): Promise<OrganizationResponse> {
    return this.organizations.get(id);
  }

  @UpdateRoute(':id', OrganizationResponse, { errors: [400, 404, 409, 415] })
  update(
    @PathId('organization') id: string,
    @Body() dto: UpdateOrganizationDto,
  ): Promise<OrganizationResponse> {
    return this.organizations.update(id, dto);
  }
}
