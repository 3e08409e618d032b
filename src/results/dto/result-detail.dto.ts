import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiNullable } from '../../common/openapi.decorators.js';
import { TEST_RUN_STATUSES, type TestRunStatus } from '../../testruns/entities/test-run.entity.js';
import { InternalResultResponse } from './result.dto.js';

/** The build a result's run tested. */
export class ResultBuildDto {
  @ApiId()
  id!: string;

  @ApiProperty({ example: 'web-shop' })
  name!: string;

  @ApiNullable(String, { example: '1042' })
  build_number!: string | null;

  @ApiNullable(String, { example: 'main' })
  branch!: string | null;

  @ApiNullable(String, { example: '9f2c1ab' })
  commit_sha!: string | null;
}

/** A defect id of the result, linked through its project's defect URL template. */
export class DefectLinkDto {
  @ApiProperty({ example: 'SHOP-12' })
  id!: string;

  @ApiNullable(String, {
    description: 'The project’s defect URL template with this id; null when it has none',
    example: 'https://jira.example.com/browse/SHOP-12',
  })
  url!: string | null;
}

/** One result as the console's detail view shows it: with its run, build and defect links. */
export class ResultDetailResponse extends InternalResultResponse {
  @ApiId()
  project_id!: string;

  @ApiProperty({ example: 'Nightly' })
  test_run_name!: string;

  @ApiProperty({ enum: TEST_RUN_STATUSES })
  test_run_status!: TestRunStatus;

  @ApiProperty({
    type: () => ResultBuildDto,
    nullable: true,
    description: 'Of the run; null for none',
  })
  build!: ResultBuildDto | null;

  @ApiProperty({ type: () => [DefectLinkDto], description: 'The result’s `defects`, in order' })
  defect_links!: DefectLinkDto[];
}
