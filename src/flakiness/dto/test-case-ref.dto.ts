import { ApiId, ApiNullable } from '../../common/openapi.decorators.js';

/** The test case a flakiness response is about: its id and the automated test's stable key. */
export class TestCaseRef {
  @ApiId()
  test_case_id!: string;

  @ApiNullable(String, { example: 'checkout.PaymentTest.paysWithSavedCard' })
  automation_id!: string | null;
}
