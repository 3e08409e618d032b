import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ApiId, ApiNullable } from '../../common/openapi.decorators.js';
import { CreatedBetweenQuery } from '../../common/pagination/pagination.js';
import { TEST_RUN_STATUSES, type TestRunStatus } from '../entities/test-run.entity.js';
import { TestRunResponse } from './test-run.dto.js';

/**
 * The console's runs list of a project (`GET /internal/v1/projects/{id}/testruns`, issue 31):
 * by status, run name, the build's branch and creation time, each left out when absent.
 */
export class ProjectRunListQuery extends CreatedBetweenQuery {
  @ApiPropertyOptional({ enum: TEST_RUN_STATUSES })
  @IsOptional()
  @IsIn(TEST_RUN_STATUSES)
  status?: TestRunStatus;

  @ApiPropertyOptional({
    maxLength: 255,
    description: 'Only runs of this name (exact): one nightly job’s runs',
    example: 'Nightly e2e',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  name?: string;

  @ApiPropertyOptional({
    maxLength: 255,
    description: 'Only runs whose build is on this branch (exact)',
    example: 'main',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  branch?: string;
}

/** The build a listed run belongs to: what tells one nightly run from the next. */
export class RunBuildContext {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'web-shop' })
  name!: string;

  @ApiNullable(String, { example: '311' })
  build_number!: string | null;

  @ApiNullable(String, { example: 'main' })
  branch!: string | null;

  @ApiNullable(String, {
    description: 'Full, lowercase',
    example: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  })
  commit_sha!: string | null;
}

/** A run as the console's runs list shows it: the run, its build, and what it came to. */
export class TestRunListItemResponse extends TestRunResponse {
  @ApiProperty({
    type: RunBuildContext,
    nullable: true,
    description: 'Null for a run without a build',
  })
  build!: RunBuildContext | null;

  @ApiNullable(Number, {
    description:
      'From the run’s creation to its completion (or, not completed, its submission), in milliseconds; null while in progress',
    example: 754000,
  })
  duration_ms!: number | null;

  @ApiNullable(Number, {
    description:
      'passed / executed (every current result but the untested ones), 0–1; null when nothing executed',
    example: 0.9725,
  })
  pass_rate!: number | null;

  @ApiProperty({
    type: [String],
    description:
      'The configurations of the run’s current results, sorted, at most the first 50; empty when none has one',
    example: ['chromium', 'firefox'],
  })
  configurations!: string[];
}
