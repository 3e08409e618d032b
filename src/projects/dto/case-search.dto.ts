import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import { ApiId, ApiNullable, ApiTimestamp } from '../../common/openapi.decorators.js';
import { PaginationQuery } from '../../common/pagination/pagination.js';

/** `GET /internal/v1/organizations/{id}/testcases/search`: a test across the projects. */
export class CaseSearchQuery extends PaginationQuery {
  @ApiProperty({
    minLength: 2,
    maxLength: 255,
    description: 'Text the title or automation id contains (case-insensitive)',
    example: 'checkout.Payment',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'q must be a string' })
  @Length(2, 255, { message: 'q must be 2 to 255 characters' })
  q!: string;
}

export class FoundTestCaseResponse {
  @ApiId()
  id!: string;

  @ApiId()
  project_id!: string;

  @ApiProperty({ example: 'WEB' })
  project_key!: string;

  @ApiProperty({ example: 'Web shop' })
  project_name!: string;

  @ApiProperty({ example: 'Pays with a saved card' })
  title!: string;

  @ApiNullable(String, { example: 'checkout.Payment.savedCard' })
  automation_id!: string | null;

  @ApiTimestamp()
  updated_at!: string;
}
