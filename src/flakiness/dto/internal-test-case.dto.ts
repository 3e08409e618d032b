import { ApiProperty } from '@nestjs/swagger';
import { ApiId } from '../../common/openapi.decorators.js';
import { TestCaseResponse } from '../../projects/dto/test-case.dto.js';
import { QuarantineEntryResponse } from './quarantine.dto.js';

/** A test case as the console's case page shows it: with its organization and quarantine. */
export class InternalTestCaseResponse extends TestCaseResponse {
  @ApiId()
  organization_id!: string;

  @ApiProperty({
    type: QuarantineEntryResponse,
    nullable: true,
    description: 'The case’s active quarantine entry; null when it is not in quarantine',
  })
  quarantine!: QuarantineEntryResponse | null;
}
