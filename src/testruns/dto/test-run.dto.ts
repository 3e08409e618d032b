import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsOptional } from 'class-validator';
import { SOURCES, type Source } from '../../builds/entities/build.entity.js';
import {
  ApiId,
  ApiNullableId,
  ApiNullableTimestamp,
  ApiTimestamp,
} from '../../common/openapi.decorators.js';
import { CreatedBetweenQuery, PaginationQuery } from '../../common/pagination/pagination.js';
import { IsId, IsName, IsOptionalId } from '../../common/validation.js';
import { TEST_RUN_STATUSES, type TestRunStatus } from '../entities/test-run.entity.js';

export const MAX_PREPOPULATED_CASES = 5000;

export class TestRunCounts {
  @ApiProperty({ description: 'Cases with a current result', example: 120 })
  total!: number;
  @ApiProperty({ example: 110 })
  passed!: number;
  @ApiProperty({ example: 4 })
  failed!: number;
  @ApiProperty({ example: 0 })
  blocked!: number;
  @ApiProperty({ example: 3 })
  skipped!: number;
  @ApiProperty({ example: 0 })
  retest!: number;
  @ApiProperty({ example: 3 })
  untested!: number;
  @ApiProperty({ description: 'Current results that passed only after retries', example: 2 })
  flaky!: number;
}

/** The quality gate's verdict kept on a run from its last completion (CONTRACT §12). */
export class KeptGateVerdict {
  @ApiProperty({ description: 'Whether the run passed its quality gate when completed' })
  passed!: boolean;

  @ApiTimestamp('When the gate was evaluated, in the completion’s transaction')
  evaluated_at!: string;
}

export class TestRunResponse {
  @ApiId()
  id!: string;

  @ApiId()
  project_id!: string;

  @ApiProperty({ example: 'Nightly regression #311' })
  name!: string;

  @ApiNullableId()
  build_id!: string | null;

  @ApiNullableId()
  release_id!: string | null;

  @ApiProperty({ enum: TEST_RUN_STATUSES })
  status!: TestRunStatus;

  @ApiProperty({ enum: SOURCES })
  source!: Source;

  @ApiProperty({ type: TestRunCounts, description: 'Counts of each case’s current result' })
  counts!: TestRunCounts;

  @ApiNullableTimestamp()
  submitted_at!: string | null;

  @ApiNullableTimestamp('Null again while a completed run is reopened')
  completed_at!: string | null;

  @ApiProperty({
    type: KeptGateVerdict,
    nullable: true,
    description:
      'The gate’s verdict at the run’s last completion: null until completed, kept through a reopening, renewed by the next completion',
  })
  gate!: KeptGateVerdict | null;

  @ApiTimestamp()
  created_at!: string;

  @ApiTimestamp()
  updated_at!: string;
}

/** The run's fields the UI also sets (its project comes from the path). */
export class TestRunFields {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Nightly regression #311' })
  @IsName()
  name!: string;

  @IsOptionalId('build_id must be a build id (UUID)')
  build_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A release of the same project' })
  @IsOptional()
  @IsId('release_id must be a release id (UUID)')
  release_id?: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: MAX_PREPOPULATED_CASES,
    description: 'Cases of the project to start as `untested`',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_PREPOPULATED_CASES)
  @ArrayUnique()
  @IsId('test_case_ids must contain test case ids (UUIDs)', { each: true })
  test_case_ids?: string[];
}

export class CreateTestRunDto extends TestRunFields {
  @ApiId()
  @IsId('project_id must be a project id (UUID)')
  project_id!: string;
}

export class UpdateTestRunDto {
  @ApiProperty({
    enum: TEST_RUN_STATUSES,
    description:
      '`submitted` from `in_progress`; `completed` from either; `in_progress` from `submitted` or `completed` reopens the run (it takes results again). Any other move, the same status included, is 409.',
  })
  @IsIn(TEST_RUN_STATUSES)
  status!: TestRunStatus;
}

export class TestRunQuery extends CreatedBetweenQuery {
  @ApiPropertyOptional({ enum: TEST_RUN_STATUSES })
  @IsOptional()
  @IsIn(TEST_RUN_STATUSES)
  status?: TestRunStatus;

  @IsOptionalId('project_id must be a project id (UUID)')
  project_id?: string;

  @IsOptionalId('build_id must be a build id (UUID)')
  build_id?: string;

  @IsOptionalId('release_id must be a release id (UUID)')
  release_id?: string;
}

/** A project's runs in the console (`GET /internal/v1/projects/{id}/testruns`). */
export class ProjectTestRunQuery extends PaginationQuery {
  @ApiPropertyOptional({ enum: TEST_RUN_STATUSES })
  @IsOptional()
  @IsIn(TEST_RUN_STATUSES)
  status?: TestRunStatus;
}
