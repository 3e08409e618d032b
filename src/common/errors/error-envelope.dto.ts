import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from './error-codes.js';

/** OpenAPI description of the error envelope every error response uses. */
export class ErrorEnvelopeDto {
  @ApiProperty({ enum: Object.values(ErrorCode), example: ErrorCode.InvalidRequest })
  error!: string;

  @ApiProperty({ example: 'name should not be empty' })
  message!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { field: 'name', errors: [{ field: 'name', message: 'name should not be empty' }] },
  })
  details!: Record<string, unknown>;
}
