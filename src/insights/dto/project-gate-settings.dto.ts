import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNumber, Max, Min, ValidateIf } from 'class-validator';
import { ApiNullable } from '../../common/openapi.decorators.js';
import { ProjectResponse } from '../../projects/dto/project.dto.js';

const PASS_RATE_RULE = 'gate_min_pass_rate must be a number from 0 to 1, or null';
/** The column is a PostgreSQL integer. */
const MAX_MIN_TESTS = 2_147_483_647;
const MIN_TESTS_RULE = `gate_min_tests must be an integer from 0 to ${MAX_MIN_TESTS}`;

export class UpdateGateSettingsDto {
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'Least passed / executed a run needs to pass the gate; null: no minimum',
    example: 0.95,
  })
  @ValidateIf(
    (dto: UpdateGateSettingsDto) =>
      dto.gate_min_pass_rate !== null && dto.gate_min_pass_rate !== undefined,
  )
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: PASS_RATE_RULE })
  @Min(0, { message: PASS_RATE_RULE })
  @Max(1, { message: PASS_RATE_RULE })
  gate_min_pass_rate?: number | null;

  @ApiPropertyOptional({ description: 'A case of the baseline absent now fails the gate' })
  @ValidateIf((dto: UpdateGateSettingsDto) => dto.gate_forbid_missing_tests !== undefined)
  @IsBoolean({ message: 'gate_forbid_missing_tests must be true or false' })
  gate_forbid_missing_tests?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_MIN_TESTS,
    description: 'Least executed results a run needs to pass the gate (default 1; 0: any run)',
    example: 1,
  })
  @ValidateIf((dto: UpdateGateSettingsDto) => dto.gate_min_tests !== undefined)
  @IsInt({ message: MIN_TESTS_RULE })
  @Min(0, { message: MIN_TESTS_RULE })
  @Max(MAX_MIN_TESTS, { message: MIN_TESTS_RULE })
  gate_min_tests?: number;
}

/** A project as the internal API shows it, with its quality gate's settings. */
export class ProjectGateSettingsResponse extends ProjectResponse {
  @ApiNullable(Number, { minimum: 0, maximum: 1, example: 0.95 })
  gate_min_pass_rate!: number | null;

  @ApiProperty({ example: false })
  gate_forbid_missing_tests!: boolean;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  gate_min_tests!: number;
}
