import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { RequireScopes, RouteCaller } from '../routes/access.decorators.js';
import { CreateRoute, ReadRoute } from '../routes/route.decorators.js';
import { AttachmentsService } from './attachments.service.js';
import { AttachmentListResponse, AttachmentResponse } from './dto/attachment.dto.js';
import { CompleteAttachmentsDto, CreateAttachmentsDto } from './dto/create-attachments.dto.js';
import { RequestOrigin } from './request-origin.decorator.js';

@ApiTags('attachments')
@Controller()
export class AttachmentsController {
  constructor(private readonly attachments: AttachmentsService) {}

  @CreateRoute('testruns/:id/attachments', AttachmentListResponse, {
    scopes: ['results:submit'],
    errors: [400, 404, 409, 413, 415],
  })
  async create(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Body() dto: CreateAttachmentsDto,
    @RequestOrigin() origin: string,
  ): Promise<AttachmentListResponse> {
    return { data: await this.attachments.create(caller, id, dto, origin) };
  }

  @Post('testruns/:id/attachments/complete')
  @HttpCode(200)
  @RequireScopes('results:submit')
  @ApiOkResponse({
    type: AttachmentListResponse,
    description: 'The attachments, in the order named',
  })
  @ApiErrors(400, 404, 415)
  async complete(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Body() dto: CompleteAttachmentsDto,
    @RequestOrigin() origin: string,
  ): Promise<AttachmentListResponse> {
    return { data: await this.attachments.complete(caller, id, dto.ids, origin) };
  }

  @ReadRoute('attachments/:id', AttachmentResponse, { scopes: ['results:read'], errors: [404] })
  get(
    @RouteCaller() caller: Caller,
    @PathId('attachment') id: string,
  ): Promise<AttachmentResponse> {
    return this.attachments.get(caller, id);
  }

  @Get('attachments/:id/content')
  @RequireScopes('results:read')
  @ApiResponse({
    status: 302,
    description: 'To a signed link that serves the bytes for the next few minutes',
  })
  @ApiErrors(404)
  async content(
    @RouteCaller() caller: Caller,
    @PathId('attachment') id: string,
    @RequestOrigin() origin: string,
    @Res() res: Response,
  ): Promise<void> {
    res.redirect(302, await this.attachments.contentLink(caller, id, origin));
  }
}
