import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import type { CsvValue } from '../common/csv.js';
import type { CsvDownload } from '../common/http/csv-download.js';
import { ProjectsService } from '../projects/projects.service.js';
import type { FlakyTestResponse, FlakyTestsFilterQuery } from './dto/flaky-test.dto.js';
import { FlakyTestsRepository } from './flaky-tests.repository.js';

/**
 * How many flaky tests one statement of the export reads. The list is computed whole by each
 * statement (`flakiness.flakyTests`: every candidate's window, then a page), so pages are
 * large: a project's flaky tests are a few hundred, and each page holds only its items.
 */
export const FLAKY_EXPORT_PAGE_SIZE = 500;

const HEADER = [
  'test_case_id',
  'automation_id',
  'title',
  'configuration',
  'executions',
  'flips',
  'flip_rate',
  'retried_passes',
  'last_status',
  'quarantined',
] as const;

function row(item: FlakyTestResponse): CsvValue[] {
  return [
    item.test_case_id,
    item.automation_id,
    item.title,
    item.configuration,
    item.executions,
    item.flips,
    Number(item.flip_rate),
    item.retried_passes,
    item.last_status,
    item.quarantined,
  ];
}

/** A project's flaky list as a CSV file (issue 31), in the list's order, streamed. */
@Injectable()
export class FlakyTestsExportService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly flakyTests: FlakyTestsRepository,
  ) {}

  /** Every flaky test the list would show with `query`'s window and filters (404: no project). */
  async export(
    caller: Caller,
    projectId: string,
    query: FlakyTestsFilterQuery,
  ): Promise<CsvDownload> {
    const project = await this.projects.find(caller, projectId);
    const flakyTests = this.flakyTests;
    return {
      filename: `${project.key} flaky tests.csv`,
      header: HEADER,
      pages: (async function* () {
        for (let offset = 0; ; offset += FLAKY_EXPORT_PAGE_SIZE) {
          const { items } = await flakyTests.list(project.organizationId, project.id, {
            branch: query.branch ?? null,
            window: query.window,
            minExecutions: query.min_executions,
            limit: FLAKY_EXPORT_PAGE_SIZE,
            offset,
            configuration: query.configuration,
          });
          if (items.length > 0) yield items.map(row);
          if (items.length < FLAKY_EXPORT_PAGE_SIZE) return;
        }
      })(),
    };
  }
}
