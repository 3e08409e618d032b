import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import {
  ApiId,
  ApiNullable,
  ApiNullableId,
  ApiTimestamp,
} from '../../common/openapi.decorators.js';
import { CreatedBetweenQuery } from '../../common/pagination/pagination.js';
import { IsCommitSha, IsHttpUrl, IsId, IsOptionalId, IsName } from '../../common/validation.js';
import {
  BUILD_STATUSES,
  type BuildStatus,
  SOURCES,
  type Source,
} from '../entities/build.entity.js';

const lowercase = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value));

export class BuildResponse {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'web-shop main #1042' })
  name!: string;

  @ApiNullable(String, { description: 'CI run number', example: '1042' })
  build_number!: string | null;

  @ApiNullable(String, {
    description: 'Commit hash, lowercase',
    example: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  })
  commit_sha!: string | null;

  @ApiNullable(String, { example: 'main' })
  branch!: string | null;

  @ApiNullable(String, { example: 'https://github.com/acme/web-shop' })
  repo_url!: string | null;

  @ApiProperty({
    enum: BUILD_STATUSES,
    description: '`planned`: waiting in the release-assignment queue',
  })
  status!: BuildStatus;

  @ApiProperty({ enum: SOURCES })
  source!: Source;

  @ApiNullable(Number, {
    description: '1-based place in the release-assignment queue while planned, else null',
    example: 3,
  })
  queue_position!: number | null;

  @ApiNullableId()
  project_id!: string | null;

  @ApiNullableId()
  release_id!: string | null;

  @ApiTimestamp()
  created_at!: string;

  @ApiTimestamp()
  updated_at!: string;
}

export class QueuedBuildResponse extends BuildResponse {
  @ApiProperty({
    example: 'Build registered; it waits in the queue for assignment to a release (position 3).',
  })
  message!: string;
}

/** Fields a build's metadata can have, shared by creation and update. */
class BuildFields {
  @ApiPropertyOptional({ description: 'CI run number', maxLength: 255, example: '1042' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  build_number?: string;

  @ApiPropertyOptional({ description: 'Hex commit hash, 7–64 characters; stored lowercase' })
  @IsOptional()
  @IsCommitSha()
  @lowercase()
  commit_sha?: string;

  @ApiPropertyOptional({ maxLength: 255, example: 'main' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  branch?: string;

  @ApiPropertyOptional({ description: 'http(s) URL of the repository', maxLength: 2048 })
  @IsOptional()
  @IsHttpUrl()
  repo_url?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A project of the organization' })
  @IsOptional()
  @IsId('project_id must be a project id (UUID)')
  project_id?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A release of the organization: the build is assigned to it at once',
  })
  @IsOptional()
  @IsId('release_id must be a release id (UUID)')
  release_id?: string;
}

export class CreateBuildDto extends BuildFields {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'web-shop main #1042' })
  @IsName()
  name!: string;
}

export class UpdateBuildDto extends BuildFields {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsName()
  name?: string;
}

export class AssignBuildDto {
  @ApiId()
  @IsId('release_id must be a release id (UUID)')
  release_id!: string;
}

export class BuildQuery extends CreatedBetweenQuery {
  @ApiPropertyOptional({ enum: BUILD_STATUSES })
  @IsOptional()
  @IsIn(BUILD_STATUSES)
  status?: BuildStatus;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  branch?: string;

  @ApiPropertyOptional({ description: 'Exact commit hash (either case)' })
  @IsOptional()
  @IsCommitSha()
  @lowercase()
  commit_sha?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  build_number?: string;

  @IsOptionalId('release_id must be a release id (UUID)')
  release_id?: string;

  @IsOptionalId('project_id must be a project id (UUID)')
  project_id?: string;

  @ApiPropertyOptional({ enum: SOURCES })
  @IsOptional()
  @IsIn(SOURCES)
  source?: Source;
}
