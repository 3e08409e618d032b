import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsId, Trim } from '../../common/validation.js';

/** Attachments one call may describe (and complete). */
export const MAX_ATTACHMENTS_PER_CALL = 100;
/** A media type: `type/subtype` and optional parameters, as HTTP's Content-Type. */
const MEDIA_TYPE =
  /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/** One attachment to add: the slot whose current result it explains, and its bytes' identity. */
export class AttachmentItemDto {
  @ApiPropertyOptional({
    maxLength: 1000,
    description: 'The result’s test case by its automation id (or `test_case_id`)',
    example: 'checkout.PaymentTest.paysWithSavedCard',
  })
  @IsOptional()
  @IsString()
  @Length(1, 1000)
  automation_id?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The result’s test case (or `automation_id`)',
  })
  @IsOptional()
  @IsId('test_case_id must be a UUID')
  test_case_id?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 100,
    description: 'The slot’s configuration; absent or null: the slot without one',
    example: 'firefox',
  })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 100)
  configuration?: string | null;

  @ApiProperty({ minLength: 1, maxLength: 255, example: 'screenshot.png' })
  @IsString()
  @Length(1, 255)
  name!: string;

  @ApiProperty({ maxLength: 255, example: 'image/png' })
  @IsString()
  @Length(3, 255)
  @Matches(MEDIA_TYPE, { message: 'content_type must be a media type such as image/png' })
  content_type!: string;

  @ApiProperty({ minimum: 0, description: 'Bytes', example: 48213 })
  @IsInt()
  @Min(0)
  size!: number;

  @ApiProperty({
    pattern: '^[0-9a-f]{64}$',
    description: 'SHA-256 of the bytes, lowercase hex',
    example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  })
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'sha256 must be 64 lowercase hex characters' })
  sha256!: string;
}

export class CreateAttachmentsDto {
  @ApiProperty({ type: [AttachmentItemDto], minItems: 1, maxItems: MAX_ATTACHMENTS_PER_CALL })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ATTACHMENTS_PER_CALL)
  @ValidateNested({ each: true })
  @Type(() => AttachmentItemDto)
  attachments!: AttachmentItemDto[];
}

export class CompleteAttachmentsDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'uuid', example: '01a2194b-476f-710e-abef-12b930311d72' },
    minItems: 1,
    maxItems: MAX_ATTACHMENTS_PER_CALL,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ATTACHMENTS_PER_CALL)
  @IsId('ids must be attachment ids (UUIDs)', { each: true })
  ids!: string[];
}
