import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';
import { ApiId } from '../../common/openapi.decorators.js';

/** Ten years: longer is keeping everything, which null says. */
export const MAX_RETENTION_DAYS = 3650;
const DAYS_RULE = `retention_days must be an integer from 1 to ${MAX_RETENTION_DAYS}, or null to keep every run`;

export class UpdateRetentionDto {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_RETENTION_DAYS,
    description:
      'Days a run is kept after its creation, with its results; null keeps every run (the default). The worker deletes older runs within the hour.',
    example: 90,
  })
  @ValidateIf((dto: UpdateRetentionDto) => dto.retention_days !== null)
  @IsInt({ message: DAYS_RULE })
  @Min(1, { message: DAYS_RULE })
  @Max(MAX_RETENTION_DAYS, { message: DAYS_RULE })
  retention_days!: number | null;
}

/** A project's retention, as the internal API shows it. */
export class RetentionResponse {
  @ApiId()
  project_id!: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_RETENTION_DAYS,
    description: 'Days a run is kept after its creation; null: every run is kept',
    example: 90,
  })
  retention_days!: number | null;
}
