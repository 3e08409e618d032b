import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiNullable } from '../../common/openapi.decorators.js';

/** A run's failing current results that share a signature (the same cause). */
export class FailureGroupResponse {
  @ApiNullable(String, {
    description: 'Null for failures stored without one',
    example: '3f9a0c1d2b4e5f60',
  })
  signature!: string | null;

  @ApiNullable(String, { description: 'Of the group’s first result' })
  failure_type!: string | null;

  @ApiNullable(String, { description: 'Of the group’s first result' })
  message!: string | null;

  @ApiProperty({ description: 'Failing results in the group', example: 12 })
  count!: number;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    maxItems: 20,
    description: 'The group’s first 20 cases, in the order their results were stored',
  })
  test_case_ids!: string[];
}

/** One of a failure group's cases, as the console names it. */
export class FailureGroupCase {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'pays by card' })
  title!: string;

  @ApiNullable(String, { example: 'checkout.Payment.pays by card' })
  automation_id!: string | null;

  @ApiId('Its current result in the group (the first, when it fails in several configurations)')
  result_id!: string;
}

/** A failure group as the console lists it: its cases named. */
export class InternalFailureGroupResponse extends FailureGroupResponse {
  @ApiProperty({
    type: [FailureGroupCase],
    maxItems: 20,
    description: 'The cases of `test_case_ids`, in the same order',
  })
  test_cases!: FailureGroupCase[];
}
