import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  ApiId,
  ApiNullable,
  ApiNullableTimestamp,
  ApiTimestamp,
} from '../../common/openapi.decorators.js';
import { PaginationQuery } from '../../common/pagination/pagination.js';
import { EVENT_TYPE_NAMES } from '../../events/event-types.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity.js';

export class WebhookResponse {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'https://ci.example.com/hooks/test-management' })
  url!: string;

  @ApiProperty({
    type: [String],
    example: ['testrun.completed.v1'],
    description: 'Event types, or ["*"]',
  })
  events!: string[];

  @ApiNullable(String)
  description!: string | null;

  @ApiProperty()
  active!: boolean;

  @ApiTimestamp()
  created_at!: string;
}

/** A subscription as the internal API shows it: with its organization. */
export class InternalWebhookResponse extends WebhookResponse {
  @ApiId()
  organization_id!: string;
}

export class CreatedWebhookResponse extends WebhookResponse {
  @ApiNullable(String, {
    description:
      'Signing secret (`whsec_…`), shown only in this response; null when the response is an ' +
      'idempotent replay (`Idempotent-Replayed: true`), since the secret is never stored for one',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string | null;
}

export class CreateWebhookDto {
  @ApiProperty({ maxLength: 2048, description: 'https URL that resolves to a public address' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({
    type: [String],
    example: ['build.created.v1', 'testrun.completed.v1'],
    description: 'Event types, or ["*"] for all',
  })
  // Checked by `createWebhookCommand`, which names the offending item (`events[2]`).
  @Allow()
  events!: unknown;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;
}

/**
 * The internal API's `CreateWebhookDto`: the same fields and checks, its document listing the
 * event types a subscription may name (the console offers those as choices).
 */
export class CreateWebhookFieldsDto extends CreateWebhookDto {
  @ApiProperty({
    enum: ['*', ...EVENT_TYPE_NAMES],
    isArray: true,
    example: ['build.created.v1', 'testrun.completed.v1'],
    description: 'Event types, or ["*"] for all (including types added later)',
  })
  // Checked by `createWebhookCommand`, which names the offending item (`events[2]`). The
  // initializer only lets the subclass redeclare the field (no value: the body's is assigned).
  @Allow()
  override events: unknown = undefined;
}

/** The internal API's change of a subscription: switching it back on (or off). */
export class UpdateWebhookDto {
  @ApiProperty({
    description:
      'false stops deliveries to it (as a 410 Gone from the receiver does); true resumes them ' +
      'for events from now on',
  })
  @IsBoolean()
  active!: boolean;
}

export class AttemptResponse {
  @ApiProperty({ example: 1 })
  attempt!: number;
  @ApiTimestamp()
  at!: string;
  @ApiNullable(Number, { example: 500 })
  response_status!: number | null;
  @ApiNullable(String, { description: 'First 2 KiB of the response body' })
  response_body!: string | null;
  @ApiNullable(String, { example: 'HTTP 500' })
  error!: string | null;
  @ApiProperty({ example: 83 })
  duration_ms!: number;
}

export class DeliveryResponse {
  @ApiId('The X-Service-Delivery header, the same on every attempt')
  id!: string;
  @ApiId()
  event_id!: string;
  @ApiProperty({ enum: EVENT_TYPE_NAMES })
  event_type!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES })
  status!: DeliveryStatus;
  @ApiProperty({ description: 'Finished attempts' })
  attempts!: number;
  @ApiNullableTimestamp()
  next_attempt_at!: string | null;
  @ApiProperty({ type: [AttemptResponse] })
  attempt_log!: AttemptResponse[];
  @ApiTimestamp()
  created_at!: string;
  @ApiTimestamp()
  updated_at!: string;
}

export class DeliveryQuery extends PaginationQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ enum: EVENT_TYPE_NAMES })
  @IsOptional()
  @IsIn(EVENT_TYPE_NAMES)
  event_type?: string;
}
