import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { ApiId, ApiNullable, ApiNullableId } from '../../common/openapi.decorators.js';
import { IsId } from '../../common/validation.js';
import { RESULT_STATUSES, type ResultStatus } from '../../results/entities/result-status.js';

export class ComparisonQuery {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Another run of the same project; by default the previous run like this one',
  })
  @IsOptional()
  @IsId('baseline_run_id must be a test run id (UUID)')
  baseline_run_id?: string;
}

export class ComparisonSummary {
  @ApiProperty({ description: 'Failed or blocked now, not in the baseline', example: 2 })
  new_failures!: number;

  @ApiProperty({ description: 'Failed or blocked in both', example: 5 })
  still_failing!: number;

  @ApiProperty({ description: 'Failed or blocked in the baseline, passed now', example: 3 })
  fixed!: number;

  @ApiProperty({ description: 'Absent from the baseline, not failed now', example: 1 })
  new_tests!: number;

  @ApiProperty({ description: 'In the baseline, absent now', example: 0 })
  missing_tests!: number;

  @ApiProperty({ description: 'Current results that are flaky', example: 1 })
  flaky!: number;
}

export class ComparisonItem {
  @ApiId()
  test_case_id!: string;

  @ApiNullable(String, {
    description: 'The slot’s configuration (CONTRACT §13): runs are compared slot by slot',
    example: 'firefox',
  })
  configuration!: string | null;

  @ApiNullable(String)
  automation_id!: string | null;

  @ApiProperty()
  title!: string;

  @ApiProperty({ enum: RESULT_STATUSES, description: 'The current result’s status' })
  status!: ResultStatus;

  @ApiProperty({
    // OpenAPI 3.0: a nullable enum lists null among its values.
    enum: [...RESULT_STATUSES, null],
    nullable: true,
    description: 'Null when the case is absent from the baseline',
  })
  baseline_status!: ResultStatus | null;

  @ApiNullable(String, { description: 'Of the current result' })
  message!: string | null;

  @ApiNullable(String, { description: 'Of the current result' })
  signature!: string | null;
}

export class ComparisonResponse {
  @ApiId()
  test_run_id!: string;

  @ApiNullableId()
  baseline_run_id!: string | null;

  @ApiProperty({ type: ComparisonSummary, description: 'Counts of every case, listed or not' })
  summary!: ComparisonSummary;

  @ApiProperty({ type: [ComparisonItem], maxItems: 100, description: 'By automation id' })
  new_failures!: ComparisonItem[];

  @ApiProperty({ type: [ComparisonItem], maxItems: 100, description: 'By automation id' })
  still_failing!: ComparisonItem[];

  @ApiProperty({ type: [ComparisonItem], maxItems: 100, description: 'By automation id' })
  fixed!: ComparisonItem[];
}
