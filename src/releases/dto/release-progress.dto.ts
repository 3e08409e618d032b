import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiNullable } from '../../common/openapi.decorators.js';
import { RELEASE_STATUSES, type ReleaseStatus } from '../entities/release.entity.js';

/** What keeps a release from ready (CONTRACT §6), in the order `not_ready_because` lists them. */
export const NOT_READY_REASONS = [
  'no_runs',
  'runs_open',
  'failed_results',
  'blocked_results',
] as const;
export type NotReadyReason = (typeof NOT_READY_REASONS)[number];

export class ReleaseRunCounts {
  @ApiProperty() total!: number;
  @ApiProperty() in_progress!: number;
  @ApiProperty() submitted!: number;
  @ApiProperty() completed!: number;
}

export class ReleaseResultCounts {
  @ApiProperty({ description: 'Cases with a current result across the release’s runs' })
  total!: number;
  @ApiProperty() passed!: number;
  @ApiProperty() failed!: number;
  @ApiProperty() blocked!: number;
  @ApiProperty() skipped!: number;
  @ApiProperty() retest!: number;
  @ApiProperty() untested!: number;
}

export class ReleaseProgressResponse {
  @ApiId()
  release_id!: string;

  @ApiProperty({ enum: RELEASE_STATUSES })
  status!: ReleaseStatus;

  @ApiProperty({ description: 'Builds assigned to the release' })
  builds!: number;

  @ApiProperty({ type: ReleaseRunCounts })
  test_runs!: ReleaseRunCounts;

  @ApiProperty({
    type: ReleaseResultCounts,
    description: 'Each case counted once, by its current result',
  })
  results!: ReleaseResultCounts;

  @ApiNullable(Number, {
    description: 'passed / executed, 4 decimals',
    example: 0.9583,
  })
  pass_rate!: number | null;

  @ApiNullable(Number, {
    description: 'executed / total, 4 decimals',
    example: 0.96,
  })
  completion_rate!: number | null;

  @ApiProperty({ description: 'At least one run, every run completed, nothing failed or blocked' })
  ready!: boolean;

  @ApiProperty({
    enum: NOT_READY_REASONS,
    isArray: true,
    description:
      'What keeps the release from ready, in this order: no run, a run not completed, a current result failed, one blocked; [] when ready',
    example: ['runs_open', 'failed_results'],
  })
  not_ready_because!: NotReadyReason[];
}
