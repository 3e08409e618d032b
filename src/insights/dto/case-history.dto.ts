import { ConfigurationFilter } from '../../results/dto/configuration-filter.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ApiNullable, ApiNullableId } from '../../common/openapi.decorators.js';
import { CreatedBetweenQuery } from '../../common/pagination/pagination.js';
import { IsOptionalId } from '../../common/validation.js';
import { RESULT_STATUSES, type ResultStatus } from '../../results/entities/result-status.js';
import { ResultResponse } from '../../results/dto/result.dto.js';

/** A stored result as the results API shows it (failure detail included), with its run. */
export class CaseHistoryItem extends ResultResponse {
  @ApiProperty({ example: 'Nightly' })
  test_run_name!: string;

  @ApiNullableId()
  build_id!: string | null;

  @ApiNullable(String, { description: 'The run’s build’s name', example: 'web-shop' })
  build_name!: string | null;

  @ApiNullable(String, { description: 'Of the run’s build', example: '1042' })
  build_number!: string | null;

  @ApiNullable(String, { description: 'Of the run’s build', example: 'main' })
  branch!: string | null;

  @ApiNullable(String, { description: 'Of the run’s build' })
  commit_sha!: string | null;
}

export class CaseHistoryQuery extends CreatedBetweenQuery {
  @ApiPropertyOptional({ enum: RESULT_STATUSES })
  @IsOptional()
  @IsIn(RESULT_STATUSES, {
    message: `status must be one of ${RESULT_STATUSES.join(', ')}`,
  })
  status?: ResultStatus;

  @ApiPropertyOptional({ maxLength: 255, description: 'The branch of the run’s build' })
  @IsOptional()
  @IsString()
  @Length(1, 255, { message: 'branch must be 1 to 255 characters' })
  branch?: string;

  @IsOptionalId('test_run_id must be a test run id (UUID)')
  test_run_id?: string;

  @ConfigurationFilter()
  configuration?: string;
}
