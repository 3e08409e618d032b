import { type EntityTarget, type ObjectLiteral } from 'typeorm';
import { BUILD_COLUMNS } from '../../src/builds/builds.repository.js';
import { Build } from '../../src/builds/entities/build.entity.js';
import { columnOf } from '../../src/database/entity-columns.js';
import { Project } from '../../src/projects/entities/project.entity.js';
import { TestCase } from '../../src/projects/entities/test-case.entity.js';
import { PROJECT_COLUMNS, TEST_CASE_COLUMNS } from '../../src/projects/projects.repository.js';
import { Release } from '../../src/releases/entities/release.entity.js';
import { RELEASE_COLUMNS } from '../../src/releases/releases.repository.js';
import { TestResult } from '../../src/results/entities/test-result.entity.js';
import { TEST_RESULT_COLUMNS } from '../../src/results/results.repository.js';
import { TestRun } from '../../src/testruns/entities/test-run.entity.js';
import { TEST_RUN_COLUMNS } from '../../src/testruns/test-runs.repository.js';
import { DELIVERY_COLUMNS } from '../../src/webhooks/deliveries.repository.js';
import { WebhookDelivery } from '../../src/webhooks/entities/webhook-delivery.entity.js';
import { WebhookSubscription } from '../../src/webhooks/entities/webhook-subscription.entity.js';
import { SUBSCRIPTION_COLUMNS } from '../../src/webhooks/subscriptions.repository.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

// The repositories' reads name their columns (`selectColumns`) and make entities of the rows:
// a column added to an entity and not to its list would be missing from every read.
const READS: Array<[string, EntityTarget<ObjectLiteral>, readonly string[]]> = [
  ['build', Build, BUILD_COLUMNS],
  ['project', Project, PROJECT_COLUMNS],
  ['test_case', TestCase, TEST_CASE_COLUMNS],
  ['release', Release, RELEASE_COLUMNS],
  ['test_result', TestResult, TEST_RESULT_COLUMNS],
  ['test_run', TestRun, TEST_RUN_COLUMNS],
  ['webhook_delivery', WebhookDelivery, DELIVERY_COLUMNS],
  ['webhook_subscription', WebhookSubscription, SUBSCRIPTION_COLUMNS],
];

describe("the repositories' column lists", () => {
  let s: ServiceTier;
  beforeAll(async () => {
    s = await startServiceTier([]);
  });
  afterAll(() => s.close());

  it.each(READS)('read every selectable column of %s, by its name', (_, entity, listed) => {
    const columns = s.db
      .getMetadata(entity)
      .columns.filter((c) => c.isSelect)
      .map((c) => [c.propertyName, c.databaseName]);
    expect(listed.map((p) => [p, columnOf(p)]).sort()).toEqual(columns.sort());
  });
});
