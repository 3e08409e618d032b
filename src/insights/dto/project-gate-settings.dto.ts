import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNumber, Max, Min, ValidateIf } from 'class-validator';
import { ApiNullable } from '../../common/openapi.decorators.js';
import { ProjectResponse } from '../../projects/dto/project.dto.js';

const PASS_RATE_RULE = 'gate_min_pass_rate must be a number from 0 to 1, or null';

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
}

/** A project as the internal API shows it, with its quality gate's settings. */
export class ProjectGateSettingsResponse extends ProjectResponse {
  @ApiNullable(Number, { minimum: 0, maximum: 1, example: 0.95 })
  gate_min_pass_rate!: number | null;

  @ApiProperty({ example: false })
  gate_forbid_missing_tests!: boolean;
}
