import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { IsCalendarDate, IsName } from '../../common/validation.js';
import { RELEASE_STATUSES, type ReleaseStatus } from '../entities/release.entity.js';

export class ReleaseResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  project_id!: string;

  @ApiProperty({ example: 'Spring release' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: '2026.4' })
  version!: string | null;

  @ApiProperty({ enum: RELEASE_STATUSES })
  status!: ReleaseStatus;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2026-04-30' })
  target_date!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it was completed',
  })
  released_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class CreateReleaseDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsName()
  name!: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  version?: string;

  @ApiPropertyOptional({ format: 'date', example: '2026-04-30' })
  @IsOptional()
  @IsCalendarDate()
  target_date?: string;
}

export class UpdateReleaseDto {
  @ApiPropertyOptional({
    enum: RELEASE_STATUSES,
    description: 'Forward only; `completed` is final',
  })
  @IsOptional()
  @IsIn(RELEASE_STATUSES)
  status?: ReleaseStatus;

  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsName()
  name?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  version?: string;

  @ApiPropertyOptional({ format: 'date' })
  @IsOptional()
  @IsCalendarDate()
  target_date?: string;
}
