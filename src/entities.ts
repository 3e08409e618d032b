import type { EntityClass } from './database/data-source-options.js';
import { Attachment } from './attachments/entities/attachment.entity.js';
import { UrlSigningKey } from './attachments/entities/url-signing-key.entity.js';
import { ApiKey } from './auth/entities/api-key.entity.js';
import { ConsoleSession } from './auth/sessions/entities/console-session.entity.js';
import { BuildCount } from './builds/entities/build-count.entity.js';
import { Build } from './builds/entities/build.entity.js';
import { DomainEvent } from './events/entities/domain-event.entity.js';
import { CaseOutcomeSlots } from './flakiness/entities/case-outcomes.entity.js';
import { QuarantineEntry } from './flakiness/entities/quarantine-entry.entity.js';
import { IdempotencyRecord } from './idempotency/entities/idempotency-record.entity.js';
import { OrganizationUsage } from './limits/entities/organization-usage.entity.js';
import { Organization } from './tenants/organization.entity.js';
import { Project } from './projects/entities/project.entity.js';
import { TestCase } from './projects/entities/test-case.entity.js';
import { Release } from './releases/entities/release.entity.js';
import { ReleaseSlot } from './results/entities/release-slot.entity.js';
import { TestResult } from './results/entities/test-result.entity.js';
import { TestRunCase } from './results/entities/test-run-case.entity.js';
import { TestRun } from './testruns/entities/test-run.entity.js';
import { WebhookDelivery } from './webhooks/entities/webhook-delivery.entity.js';
import { WebhookSubscription } from './webhooks/entities/webhook-subscription.entity.js';

/**
 * Every TypeORM entity of the service: the application's wiring gives this list to the database
 * (`DatabaseModule.forRoot`, `ormconfig.ts`), so `database/` imports no feature.
 */
export const ENTITIES: EntityClass[] = [
  Organization,
  ApiKey,
  OrganizationUsage,
  Project,
  TestCase,
  Release,
  Build,
  BuildCount,
  IdempotencyRecord,
  TestRun,
  TestResult,
  TestRunCase,
  ReleaseSlot,
  QuarantineEntry,
  CaseOutcomeSlots,
  DomainEvent,
  WebhookSubscription,
  WebhookDelivery,
  ConsoleSession,
  Attachment,
  UrlSigningKey,
];
