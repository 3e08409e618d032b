import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import { ApiId, ApiNullable, ApiTimestamp } from '../../common/openapi.decorators.js';
import { IntegerQueryParam, PaginationQuery } from '../../common/pagination/pagination.js';
import { RESULT_STATUSES, type ResultStatus } from '../entities/result-status.js';

/** The most recent runs a search of error text may read. */
export const MAX_SEARCHED_RUNS = 100;

/** `GET /internal/v1/projects/{id}/failures/search`: error text in the project's latest runs. */
export class FailureSearchQuery extends PaginationQuery {
  @ApiProperty({
    minLength: 2,
    maxLength: 255,
    description:
      'Text the result’s message or failure type contains, case and accents aside ("naive" finds "naïve")',
    example: 'timed out',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'q must be a string' })
  @Length(2, 255, { message: 'q must be 2 to 255 characters' })
  q!: string;

  @IntegerQueryParam({
    minimum: 1,
    maximum: MAX_SEARCHED_RUNS,
    default: 10,
    description: 'How many of the project’s latest runs to search (the cost’s bound)',
  })
  runs: number = 10;
}

export class FoundFailureResponse {
  @ApiId()
  result_id!: string;

  @ApiId()
  test_run_id!: string;

  @ApiProperty({ example: 'Nightly e2e' })
  run_name!: string;

  @ApiTimestamp('When the run was created')
  run_created_at!: string;

  @ApiId()
  test_case_id!: string;

  @ApiProperty({ example: 'Pays with a saved card' })
  title!: string;

  @ApiNullable(String, { example: 'checkout.Payment.savedCard' })
  automation_id!: string | null;

  @ApiNullable(String, { example: 'firefox' })
  configuration!: string | null;

  @ApiProperty({ enum: RESULT_STATUSES })
  status!: ResultStatus;

  @ApiNullable(String, { example: 'AssertionError' })
  failure_type!: string | null;

  @ApiNullable(String, {
    description: 'The message, cut to its first 1,000 characters',
    example: 'expected 200, got 402',
  })
  message!: string | null;

  @ApiTimestamp('When the result was stored')
  created_at!: string;
}
