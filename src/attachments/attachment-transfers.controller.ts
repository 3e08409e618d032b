import { Controller, Get, Put, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PathId } from '../common/ids.js';
import { StreamsBody } from '../common/http/streams-body.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { SignedLink } from '../routes/access.decorators.js';
import type { LinkQuery } from './attachment-links.js';
import { AttachmentTransfersService } from './attachment-transfers.service.js';
import { AttachmentResponse } from './dto/attachment.dto.js';

/** The routes behind the service's own signed links: no key, counted against no limit. */
@ApiTags('attachments')
@Controller('attachments/:id')
export class AttachmentTransfersController {
  constructor(private readonly transfers: AttachmentTransfersService) {}

  @Put('upload')
  @SignedLink()
  @StreamsBody()
  @ApiOkResponse({ type: AttachmentResponse, description: 'The bytes are stored' })
  @ApiErrors(400, 404, 503)
  upload(
    @PathId('attachment') id: string,
    @Query() query: LinkQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AttachmentResponse> {
    return this.transfers.upload(id, query, req, res);
  }

  @Get('download')
  @SignedLink()
  @ApiResponse({
    status: 200,
    description:
      'The bytes, with their type, `Content-Security-Policy: sandbox`, and `Content-Disposition: attachment` unless an image, a video or plain text',
  })
  @ApiErrors(404)
  download(
    @PathId('attachment') id: string,
    @Query() query: LinkQuery,
    @Res() res: Response,
  ): Promise<void> {
    return this.transfers.download(id, query, res);
  }
}
