import { DynamicModule, Module, type Type } from '@nestjs/common';
import { AttachmentsModule } from './attachments/attachments.module.js';
import { AttachmentRetentionModule } from './attachments/retention/attachment-retention.module.js';
import { AccessModule } from './auth/access.module.js';
import { BuildsModule } from './builds/builds.module.js';
import { ConfigModule } from './config/config.module.js';
import { Settings } from './config/settings.js';
import { DatabaseModule } from './database/database.module.js';
import { ENTITIES } from './entities.js';
import { EventsHttpModule } from './events/events-http.module.js';
import { OutboxModule } from './events/outbox.module.js';
import { FlakinessModule } from './flakiness/flakiness.module.js';
import { HealthModule } from './health/health.module.js';
import { HttpPipelineModule } from './http-pipeline.module.js';
import { InsightsModule } from './insights/insights.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { OpenApiModule } from './openapi/openapi.module.js';
import { OrganizationsModule } from './organizations/organizations.module.js';
import { ProjectsModule } from './projects/projects.module.js';
import { QueuesModule } from './queues/queues.module.js';
import { RedisModule } from './redis/redis.module.js';
import { RetentionHttpModule, RetentionWorkerModule } from './retention/retention.module.js';
import { PartitionKeeperModule } from './partitions/partitions.module.js';
import { TestRunLifecycleModule } from './test-run-lifecycle/test-run-lifecycle.module.js';
import { WebhooksHttpModule, WebhookWorkerModule } from './webhooks/webhooks.module.js';
import { ReleaseProgressModule } from './release-progress/release-progress.module.js';
import { WebConsoleModule } from './web-console/web-console.module.js';

/** Feature modules that serve the HTTP API (`APP_ROLE` api or all). */
const API_MODULES: Type[] = [
  AccessModule,
  HttpPipelineModule,
  OrganizationsModule,
  ProjectsModule,
  ReleaseProgressModule,
  BuildsModule,
  TestRunLifecycleModule,
  AttachmentsModule,
  InsightsModule,
  FlakinessModule,
  RetentionHttpModule,
  WebhooksHttpModule,
  EventsHttpModule,
  OpenApiModule,
  WebConsoleModule,
];
/** Modules that consume queues (`APP_ROLE` worker or all). */
const WORKER_MODULES: Type[] = [
  WebhookWorkerModule,
  RetentionWorkerModule,
  AttachmentRetentionModule,
  PartitionKeeperModule,
];

@Module({})
export class AppModule {
  /** `extraModules` lets tests mount probes of their own on the real pipeline. */
  static forRoot(settings: Settings, extraModules: Type[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(settings),
        LoggingModule,
        DatabaseModule.forRoot(ENTITIES),
        RedisModule,
        QueuesModule,
        OutboxModule,
        HealthModule,
        ...(settings.servesHttpApi ? API_MODULES : []),
        ...(settings.runsWorkers ? WORKER_MODULES : []),
        ...extraModules,
      ],
    };
  }
}
