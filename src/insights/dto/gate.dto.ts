import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiTimestamp } from '../../common/openapi.decorators.js';

export const GATE_RULES = [
  'no_new_failures',
  'min_pass_rate',
  'no_missing_tests',
  'min_tests',
] as const;
export type GateRuleName = (typeof GATE_RULES)[number];

export class GateRuleResponse {
  @ApiProperty({ enum: GATE_RULES })
  name!: GateRuleName;

  @ApiProperty({ description: 'True also when the rule is skipped or not required' })
  passed!: boolean;

  @ApiProperty({ example: '2 new failures outside quarantine.' })
  detail!: string;
}

export class GateResponse {
  @ApiId()
  test_run_id!: string;

  @ApiProperty({ description: 'True when every rule passed' })
  passed!: boolean;

  @ApiProperty({ type: [GateRuleResponse] })
  rules!: GateRuleResponse[];

  @ApiTimestamp('When the gate was evaluated: now, with today’s quarantine')
  evaluated_at!: string;
}
