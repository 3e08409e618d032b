import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { IntegerQueryParam, PaginationQuery } from '../../common/pagination/pagination.js';
import { TestCaseRef } from './test-case-ref.dto.js';
import { ConfigurationFilter } from '../../results/dto/configuration-filter.js';
import { ApiNullable } from '../../common/openapi.decorators.js';

/** Bounds shared by both counts of results per case (a flip rate needs two at the least). */
const RESULTS_PER_CASE = { minimum: 2, maximum: 200 };

/** The flaky list's window and filters: what its page and its CSV export share. */
export class FlakyTestsFilterQuery {
  @IntegerQueryParam({
    ...RESULTS_PER_CASE,
    default: 30,
    description: 'How many of each case’s latest passed or failed results to look at',
  })
  window: number = 30;

  @IntegerQueryParam({
    ...RESULTS_PER_CASE,
    default: 5,
    description: 'Cases with fewer results in their window are not listed',
  })
  min_executions: number = 5;

  @ApiPropertyOptional({
    maxLength: 255,
    description: 'Only runs whose build is on this branch',
    example: 'main',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  branch?: string;

  @ConfigurationFilter()
  configuration?: string;
}

/** A page of the flaky list. */
export class FlakyTestsQuery extends IntersectionType(PaginationQuery, FlakyTestsFilterQuery) {}

export class FlakyTestResponse extends TestCaseRef {
  @ApiNullable(String, {
    description: 'The slot’s configuration (CONTRACT §13): a test is listed per configuration',
    example: 'firefox',
  })
  configuration!: string | null;

  @ApiProperty({ example: 'Pays with a saved card' })
  title!: string;

  @ApiProperty({ description: 'Passed or failed results in the window', example: 30 })
  executions!: number;

  @ApiProperty({ description: 'Status changes between consecutive results', example: 6 })
  flips!: number;

  @ApiProperty({ description: 'flips / (executions − 1), 4 decimals', example: 0.2069 })
  flip_rate!: number;

  @ApiProperty({ description: 'Passed results that needed retries', example: 2 })
  retried_passes!: number;

  @ApiProperty({ enum: ['passed', 'failed'], description: 'Status of the latest result' })
  last_status!: 'passed' | 'failed';

  @ApiProperty({ description: 'The case is in quarantine' })
  quarantined!: boolean;
}
