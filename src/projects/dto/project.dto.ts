import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ApiId, ApiNullable, ApiTimestamp } from '../../common/openapi.decorators.js';
import { IsName } from '../../common/validation.js';

export class ProjectResponse {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'Web shop' })
  name!: string;

  @ApiProperty({
    description: 'Short code, unique within the organization without regard to case',
    example: 'WEB',
  })
  key!: string;

  @ApiNullable(String, { example: 'Storefront and checkout' })
  description!: string | null;

  @ApiTimestamp()
  created_at!: string;

  @ApiTimestamp()
  updated_at!: string;
}

/** A project as the console reads it: with the organization it belongs to. */
export class InternalProjectResponse extends ProjectResponse {
  @ApiId()
  organization_id!: string;

  @ApiNullable(String, {
    description: 'Where its defects live: a result’s defect id replaces {id}; null: none',
    example: 'https://jira.example.com/browse/{id}',
  })
  defect_url_template!: string | null;
}

export class CreateProjectDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Web shop' })
  @IsName()
  name!: string;

  @ApiProperty({
    description:
      'Letters, digits, _ or -; 1–32 characters; unique within the organization without regard to case (409 otherwise)',
    example: 'WEB',
  })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,32}$/, { message: 'key must be 1 to 32 letters, digits, _ or -' })
  key!: string;

  @ApiPropertyOptional({ maxLength: 10000 })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string;
}
