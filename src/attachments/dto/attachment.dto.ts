import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiNullable, ApiTimestamp } from '../../common/openapi.decorators.js';
import { ATTACHMENT_STATUSES, type AttachmentStatus } from '../entities/attachment.entity.js';

/** Where and how to send an attachment's bytes. */
export class AttachmentUploadResponse {
  @ApiProperty({ enum: ['PUT'] })
  method!: 'PUT';

  @ApiProperty({ description: 'Carries its own signature: send no Authorization header' })
  url!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Send exactly these headers',
  })
  headers!: Record<string, string>;

  @ApiTimestamp('The URL is refused after this moment')
  expires_at!: string;
}

export class AttachmentResponse {
  @ApiId() id!: string;
  @ApiId() test_run_id!: string;
  @ApiId() result_id!: string;
  @ApiId() test_case_id!: string;
  @ApiNullable(String) configuration!: string | null;
  @ApiProperty() name!: string;
  @ApiProperty() content_type!: string;
  @ApiProperty() size!: number;
  @ApiProperty() sha256!: string;
  @ApiProperty({ enum: ATTACHMENT_STATUSES }) status!: AttachmentStatus;

  @ApiProperty({
    type: AttachmentUploadResponse,
    nullable: true,
    description: 'Null when nothing is to be sent (the content is stored already)',
  })
  upload!: AttachmentUploadResponse | null;

  @ApiTimestamp() created_at!: string;
  @ApiTimestamp() updated_at!: string;
}

export class AttachmentListResponse {
  @ApiProperty({ type: [AttachmentResponse] })
  data!: AttachmentResponse[];
}

/** An attachment as a result lists it. */
export class ResultAttachmentResponse {
  @ApiId() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() content_type!: string;
  @ApiProperty() size!: number;
}

/**
 * An attachment as the console shows it beside its result: with a signed link to its bytes
 * (the service's own download link, on the console's origin), valid until `content_expires_at`.
 */
export class ResultAttachmentLinkResponse extends ResultAttachmentResponse {
  @ApiProperty({
    description:
      'Serves the bytes until `content_expires_at`, with the headers of CONTRACT §15 (no credential needed)',
  })
  content_url!: string;

  @ApiTimestamp('The link is refused after this moment (10 minutes after it was made)')
  content_expires_at!: string;
}

export class ResultAttachmentLinkListResponse {
  @ApiProperty({ type: [ResultAttachmentLinkResponse], description: 'In the order attached' })
  data!: ResultAttachmentLinkResponse[];
}
