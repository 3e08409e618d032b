import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { ApiId, ApiNullable, ApiTimestamp } from '../../common/openapi.decorators.js';
import { PaginationQuery } from '../../common/pagination/pagination.js';
import { IsTimestampFilter, Trim } from '../../common/validation.js';
import {
  TEST_CASE_PRIORITIES,
  TEST_CASE_STATUSES,
  type TestCasePriority,
  type TestCaseStatus,
} from '../entities/test-case.entity.js';

export class TestCaseResponse {
  @ApiId()
  id!: string;

  @ApiId()
  project_id!: string;

  @ApiProperty({ example: 'Pays with a saved card' })
  title!: string;

  @ApiNullable(String, {
    description: 'Stable key of the automated test, unique in the project',
    example: 'checkout.PaymentTest.paysWithSavedCard',
  })
  automation_id!: string | null;

  @ApiNullable(String, { example: 'Checkout / Payments' })
  section!: string | null;

  @ApiProperty({ enum: TEST_CASE_PRIORITIES })
  priority!: TestCasePriority;

  @ApiProperty({ enum: TEST_CASE_STATUSES })
  status!: TestCaseStatus;

  @ApiTimestamp()
  created_at!: string;

  @ApiTimestamp()
  updated_at!: string;
}

export class CreateTestCaseDto {
  @ApiProperty({ minLength: 1, maxLength: 1000 })
  @Trim()
  @IsString()
  @Length(1, 1000)
  title!: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 1000 })
  @IsOptional()
  @IsString()
  @Length(1, 1000)
  automation_id?: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  section?: string;

  @ApiPropertyOptional({ enum: TEST_CASE_PRIORITIES, default: 'medium' })
  @IsOptional()
  @IsIn(TEST_CASE_PRIORITIES)
  priority?: TestCasePriority;
}

/** The filters both lists of a project's cases take (the public one and the console's). */
class TestCaseFilters extends PaginationQuery {
  @ApiPropertyOptional({ description: 'Exact automation id' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  automation_id?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Only cases changed strictly after this time (incremental sync)',
  })
  @IsOptional()
  @IsTimestampFilter()
  updated_after?: Date;
}

export class TestCaseQuery extends TestCaseFilters {
  @ApiPropertyOptional({ description: 'Title contains this text (case-insensitive)' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  q?: string;
}

/** The internal API's list of a project's cases: its `q` searches the automation id too. */
export class InternalTestCaseQuery extends TestCaseFilters {
  @ApiPropertyOptional({
    description: 'Title or automation id contains this text (case-insensitive)',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  q?: string;
}
