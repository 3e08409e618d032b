import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { PaginationQuery, toInteger } from '../../common/pagination/pagination.js';

const WINDOW_RULE = 'window must be an integer from 2 to 200';
const MIN_EXECUTIONS_RULE = 'min_executions must be an integer from 2 to 200';

export class FlakyTestsQuery extends PaginationQuery {
  @ApiPropertyOptional({
    minimum: 2,
    maximum: 200,
    default: 30,
    description: 'How many of each case’s latest passed or failed results to look at',
  })
  @Transform(toInteger)
  @IsInt({ message: WINDOW_RULE })
  @Min(2, { message: WINDOW_RULE })
  @Max(200, { message: WINDOW_RULE })
  window: number = 30;

  @ApiPropertyOptional({
    minimum: 2,
    maximum: 200,
    default: 5,
    description: 'Cases with fewer results in their window are not listed',
  })
  @Transform(toInteger)
  @IsInt({ message: MIN_EXECUTIONS_RULE })
  @Min(2, { message: MIN_EXECUTIONS_RULE })
  @Max(200, { message: MIN_EXECUTIONS_RULE })
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
}

export class FlakyTestResponse {
  @ApiProperty({ format: 'uuid' })
  test_case_id!: string;

  @ApiProperty({ type: String, nullable: true, example: 'checkout.PaymentTest.paysWithSavedCard' })
  automation_id!: string | null;

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
