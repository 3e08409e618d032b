import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InternalApi } from '../auth/access.decorators.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import { ParseIdPipe } from '../common/ids.js';
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

  @Post()
  @ApiErrors(400, 409, 415, 422)
  @ApiCreatedResponse({ type: OrganizationResponse })
  create(@Body() dto: CreateOrganizationDto): Promise<OrganizationResponse> {
    return this.organizations.create(dto);
  }

  @Get()
  @ApiErrors(400)
  @ApiPageResponse(OrganizationResponse, 'Every organization, newest first')
  list(@Query() query: PaginationQuery): Promise<Page<OrganizationResponse>> {
    return this.organizations.list(query);
  }

  @Get(':id')
  @ApiErrors(400, 404)
  @ApiOkResponse({ type: OrganizationResponse })
  get(@Param('id', new ParseIdPipe('organization')) id: string): Promise<OrganizationResponse> {
    return this.organizations.get(id);
  }

  @Patch(':id')
  @ApiErrors(400, 404, 409, 415)
  @ApiOkResponse({ type: OrganizationResponse })
  update(
    @Param('id', new ParseIdPipe('organization')) id: string,
    @Body() dto: UpdateOrganizationDto,
  ): Promise<OrganizationResponse> {
    return this.organizations.update(id, dto);
  }
}
