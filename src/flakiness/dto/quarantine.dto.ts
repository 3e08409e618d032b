import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, registerDecorator } from 'class-validator';
import { ApiNullableTimestamp, ApiTimestamp } from '../../common/openapi.decorators.js';
import { parseTimestamp, TIMESTAMP_RULE, Trim } from '../../common/validation.js';
import { TestCaseRef } from './test-case-ref.dto.js';

export const MAX_REASON_LENGTH = 1000;

/** A timestamp (as `IsTimestamp` takes) that has not passed yet. */
function IsFutureTimestamp() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isFutureTimestamp',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} ${TIMESTAMP_RULE}, in the future` },
      validator: {
        validate: (value: unknown) => (parseTimestamp(value)?.getTime() ?? 0) > Date.now(),
      },
    });
}

export class QuarantineDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_REASON_LENGTH,
    example: 'Times out on the shared runners; tracked in QA-123',
  })
  @Trim()
  @IsString()
  @Length(1, MAX_REASON_LENGTH, {
    message: `reason must be a text of 1 to ${MAX_REASON_LENGTH} characters`,
  })
  reason!: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the quarantine ends by itself (in the future); absent or null: never',
  })
  @IsOptional()
  @IsFutureTimestamp()
  expires_at?: string | null;
}

export class QuarantineEntryResponse extends TestCaseRef {
  @ApiProperty({ example: 'Times out on the shared runners; tracked in QA-123' })
  reason!: string;

  @ApiNullableTimestamp()
  expires_at!: string | null;

  @ApiTimestamp('When the case went into quarantine')
  created_at!: string;
}

/** An entry as the console's quarantine list shows it: with its case's title, and whether flaky. */
export class InternalQuarantineEntryResponse extends QuarantineEntryResponse {
  @ApiProperty({ example: 'Pays with a saved card' })
  title!: string;

  @ApiProperty({
    description:
      'The case is on the project’s flaky-tests list (a case quarantined for another cause is not)',
  })
  flaky!: boolean;
}
