import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Longest configuration (CONTRACT §13), after trimming. */
export const MAX_CONFIGURATION_LENGTH = 100;

/**
 * The `configuration` filter of a listing (CONTRACT §13): results in that configuration,
 * compared after trimming; `configuration=` (empty) selects those without one.
 */
export const ConfigurationFilter = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      maxLength: MAX_CONFIGURATION_LENGTH,
      description:
        'Only results in this configuration (compared after trimming); empty: only those without one',
    }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim() : value,
    ),
    IsString({ message: 'configuration must be a string' }),
    MaxLength(MAX_CONFIGURATION_LENGTH, {
      message: `configuration must be at most ${MAX_CONFIGURATION_LENGTH} characters`,
    }),
  );
