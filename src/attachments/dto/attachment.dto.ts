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
