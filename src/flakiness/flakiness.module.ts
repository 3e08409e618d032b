import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module.js';
import { FlakinessController } from './flakiness.controller.js';
import { FlakinessInternalController } from './flakiness.internal.controller.js';
import { FlakyTestsExportService } from './flaky-tests-export.service.js';
import { FlakyTestsRepository } from './flaky-tests.repository.js';
import { FlakyTestsService } from './flaky-tests.service.js';
import { QuarantineRepository } from './quarantine.repository.js';
import { QuarantineService } from './quarantine.service.js';

/** Flaky tests and quarantine (CONTRACT §12). */
@Module({
  imports: [ProjectsModule],
  controllers: [FlakinessController, FlakinessInternalController],
  providers: [
    FlakyTestsRepository,
    FlakyTestsService,
    FlakyTestsExportService,
    QuarantineRepository,
    QuarantineService,
  ],
  exports: [QuarantineService, FlakyTestsService],
})
export class FlakinessModule {}
