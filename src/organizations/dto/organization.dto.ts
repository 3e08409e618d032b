import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateIf } from 'class-validator';
import { ApiId, ApiNullable, ApiTimestamp } from '../../common/openapi.decorators.js';
import { IsTimestamp } from '../../common/validation.js';
import { PLANS, type Plan } from '../../tenants/organization.entity.js';

const MAX_CUSTOM_LIMIT = 1_000_000_000;

export class OrganizationResponse {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'Acme QA' })
  name!: string;

  @ApiProperty({ enum: PLANS })
  plan!: Plan;

  @ApiTimestamp('Anchor of the monthly billing period')
  subscription_started_at!: string;

  @ApiProperty({
    description: 'Effective monthly call limit: the custom one, else the plan’s',
    example: 1000,
  })
  monthly_call_limit!: number;

  @ApiProperty({ description: 'Calls counted in the current billing period', example: 17 })
  calls_this_period!: number;

  @ApiTimestamp('When the monthly limit resets')
  period_reset_at!: string;

  @ApiNullable(Number, {
    description: 'Webhook subscriptions allowed; null = unlimited',
    example: 5,
  })
  webhook_limit!: number | null;

  @ApiTimestamp()
  created_at!: string;

  @ApiTimestamp()
  updated_at!: string;
}

export class CreateOrganizationDto {
  @ApiProperty({ example: 'Acme QA', minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name!: string;

  @ApiProperty({ enum: PLANS })
  @IsIn(PLANS)
  plan!: Plan;

  @ApiPropertyOptional({ format: 'date-time', description: 'Defaults to now' })
  @IsOptional()
  @IsTimestamp()
  subscription_started_at?: string;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    description: 'Custom monthly limit; null = the plan’s',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_CUSTOM_LIMIT)
  monthly_call_limit?: number | null;
}

export class UpdateOrganizationDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  name?: string;

  @ApiPropertyOptional({ enum: PLANS })
  @IsOptional()
  @IsIn(PLANS)
  plan?: Plan;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    description: 'null clears the custom limit',
  })
  @ValidateIf((_dto, value) => value !== null)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_CUSTOM_LIMIT)
  monthly_call_limit?: number | null;
}
