import { Body, Query } from '@nestjs/common';
import {
  CreateRoute,
  InternalController,
  ListRoute,
  ReadRoute,
  UpdateRoute,
} from '../routes/route.decorators.js';
import { PathId } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import {
  CreateOrganizationDto,
  OrganizationResponse,
  UpdateOrganizationDto,
} from './dto/organization.dto.js';
import { OrganizationsService } from './organizations.service.js';

@InternalController('organizations')
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
