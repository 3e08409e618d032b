import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import {
  ApiId,
  ApiNullable,
  ApiNullableId,
  ApiNullableTimestamp,
  ApiTimestamp,
} from '../../../common/openapi.decorators.js';
import { IntegerQueryParam } from '../../../common/pagination/pagination.js';
import { KeptGateVerdict, TestRunCounts } from '../../../testruns/dto/test-run.dto.js';
import {
  TEST_RUN_STATUSES,
  type TestRunStatus,
} from '../../../testruns/entities/test-run.entity.js';

/** The branch a trend follows, or recurring failures are read on. */
class BranchQuery {
  @ApiPropertyOptional({
    maxLength: 255,
    description: 'Only runs whose build is on this branch',
    example: 'main',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  branch?: string;
}

export class OverviewTrendQuery extends BranchQuery {
  @ApiProperty({ maxLength: 255, description: 'The runs’ name', example: 'nightly' })
  @IsString()
  @Length(1, 255)
  name!: string;

  @IntegerQueryParam({
    minimum: 2,
    maximum: 100,
    default: 30,
    description: 'How many of the latest submitted or completed runs',
  })
  runs: number = 30;
}

export class RecurringFailuresQuery extends BranchQuery {
  @ApiPropertyOptional({
    maxLength: 255,
    description: 'Only runs of this name',
    example: 'nightly',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  name?: string;

  @IntegerQueryParam({
    minimum: 2,
    maximum: 50,
    default: 10,
    description: 'How many of the latest submitted or completed runs to look in',
  })
  runs: number = 10;

  @IntegerQueryParam({
    minimum: 1,
    maximum: 50,
    default: 10,
    description: 'At most this many causes',
  })
  limit: number = 10;
}

/** The build a run tested. */
export class OverviewBuild {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'shop main #311' })
  name!: string;

  @ApiNullable(String, { example: '311' })
  build_number!: string | null;

  @ApiNullable(String, { example: 'main' })
  branch!: string | null;

  @ApiNullable(String, { example: '4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39' })
  commit_sha!: string | null;
}

/** A run as the overview shows it. */
export class OverviewRun {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'nightly' })
  name!: string;

  @ApiProperty({ enum: TEST_RUN_STATUSES })
  status!: TestRunStatus;

  @ApiProperty({ type: TestRunCounts, description: 'Counts of each slot’s current result' })
  counts!: TestRunCounts;

  @ApiNullable(Number, {
    description: 'passed / executed (every status but untested), 4 decimals; null when none ran',
    example: 0.9876,
  })
  pass_rate!: number | null;

  @ApiNullable(Number, {
    description:
      'From the run’s creation to when it was first handed in (submitted, else completed); null while in progress',
    example: 2_400_000,
  })
  duration_ms!: number | null;

  @ApiProperty({
    type: KeptGateVerdict,
    nullable: true,
    description: 'The gate’s verdict kept at the run’s last completion; null until completed',
  })
  gate!: KeptGateVerdict | null;

  @ApiProperty({
    type: OverviewBuild,
    nullable: true,
    description: 'The run’s build; null without one',
  })
  build!: OverviewBuild | null;

  @ApiTimestamp()
  created_at!: string;

  @ApiNullableTimestamp()
  submitted_at!: string | null;

  @ApiNullableTimestamp()
  completed_at!: string | null;
}

/** A run name with a branch its builds were on: what a trend follows. */
export class RunSeries {
  @ApiProperty({ example: 'nightly' })
  name!: string;

  @ApiNullable(String, {
    description: 'Null: runs without a build, or whose build names no branch',
    example: 'main',
  })
  branch!: string | null;

  @ApiProperty({ description: 'Its runs among the project’s latest 500', example: 42 })
  runs!: number;

  @ApiTimestamp()
  last_run_at!: string;
}

export class ProjectOverviewResponse {
  @ApiId()
  project_id!: string;

  @ApiProperty({
    type: [OverviewRun],
    description: 'The latest run of each run name (at most 100 names), latest first',
  })
  latest_runs!: OverviewRun[];

  @ApiProperty({
    type: [RunSeries],
    description:
      'Each run name and branch among the project’s latest 500 runs (at most 50), most recently run first',
  })
  series!: RunSeries[];
}

export class OverviewTrendResponse {
  @ApiProperty({ example: 'nightly' })
  name!: string;

  @ApiNullable(String, { description: 'Null: every branch', example: 'main' })
  branch!: string | null;

  @ApiProperty({
    type: [OverviewRun],
    description: 'The series’ latest submitted or completed runs, oldest first',
  })
  runs!: OverviewRun[];
}

/** A cause of failure (a signature, CONTRACT §12) seen in several of the latest runs. */
export class RecurringFailure {
  @ApiProperty({ example: '9f86d081884c7d65' })
  signature!: string;

  @ApiNullable(String, { description: 'Of its latest failure', example: 'AssertionError' })
  failure_type!: string | null;

  @ApiNullable(String, { description: 'Of its latest failure', example: 'expected 200, got 502' })
  message!: string | null;

  @ApiProperty({ description: 'Runs of the window it failed in', example: 7 })
  runs!: number;

  @ApiProperty({ description: 'Failing current results with it, in those runs', example: 31 })
  failures!: number;

  @ApiProperty({ description: 'Test cases that failed with it', example: 5 })
  cases!: number;

  @ApiProperty({ description: 'Whether it failed in the window’s latest run' })
  in_latest_run!: boolean;

  @ApiId('The latest run it failed in')
  last_run_id!: string;
}

export class RecurringFailuresResponse {
  @ApiProperty({ description: 'Runs read (the latest submitted or completed ones)', example: 10 })
  runs_read!: number;

  @ApiNullableId()
  latest_run_id!: string | null;

  @ApiProperty({
    type: [RecurringFailure],
    description: 'Causes seen in two runs or more, in the most runs first, then the most failures',
  })
  data!: RecurringFailure[];
}
