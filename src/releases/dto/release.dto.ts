import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import {
  ApiId,
  ApiNullable,
  ApiNullableTimestamp,
  ApiTimestamp,
} from '../../common/openapi.decorators.js';
import { IsCalendarDate, IsName } from '../../common/validation.js';
import { ReleaseProgressResponse } from './release-progress.dto.js';
import { RELEASE_STATUSES, type ReleaseStatus } from '../entities/release.entity.js';

export class ReleaseResponse {
  @ApiId()
  id!: string;

  @ApiId()
  project_id!: string;

  @ApiProperty({ example: 'Spring release' })
  name!: string;

  @ApiNullable(String, { example: '2026.4' })
  version!: string | null;

  @ApiProperty({ enum: RELEASE_STATUSES })
  status!: ReleaseStatus;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2026-04-30' })
  target_date!: string | null;

  @ApiNullableTimestamp('When it was completed')
  released_at!: string | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Its runs deleted by their project’s retention: their results no longer count in its progress',
  })
  runs_deleted!: number;

  @ApiTimestamp()
  created_at!: string;

  @ApiTimestamp()
  updated_at!: string;
}

/** A release with its readiness, as `GET /releases/{id}/progress` computes it (the console). */
export class ReleaseOverviewResponse extends ReleaseResponse {
  @ApiProperty({ type: ReleaseProgressResponse })
  progress!: ReleaseProgressResponse;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'How many of the failed or blocked results in `progress` are of test cases in quarantine now: the quality gate ignores them, the release’s readiness does not',
  })
  quarantined_failures!: number;
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
