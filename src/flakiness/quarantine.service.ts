import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { type Page, type PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { parseTimestamp } from '../common/validation.js';
import { Transactions } from '../database/transactions.js';
import { EventsService } from '../events/events.service.js';
import { TestCaseLookup } from '../projects/project-lookup.js';
import { ProjectsService, toTestCaseResponse } from '../projects/projects.service.js';
import type { InternalTestCaseResponse } from './dto/internal-test-case.dto.js';
import type {
  InternalQuarantineEntryResponse,
  QuarantineDto,
  QuarantineEntryResponse,
} from './dto/quarantine.dto.js';
import { FlakyTestsService } from './flaky-tests.service.js';
import {
  type ListedQuarantineRow,
  QuarantineRepository,
  type QuarantineRow,
} from './quarantine.repository.js';

export function toQuarantineEntryResponse(row: QuarantineRow): QuarantineEntryResponse {
  return {
    test_case_id: row.test_case_id,
    automation_id: row.automation_id,
    reason: row.reason,
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * Quarantine (CONTRACT §12): a quarantined case's failures do not fail the quality gate. Each
 * change records its event in the same transaction, with the entry as the API returns it.
 */
@Injectable()
export class QuarantineService {
  constructor(
    private readonly transactions: Transactions,
    private readonly projects: ProjectsService,
    private readonly entries: QuarantineRepository,
    private readonly events: EventsService,
    private readonly cases: TestCaseLookup,
    private readonly flakyTests: FlakyTestsService,
  ) {}

  /** Creates or changes the case's entry: a PUT without `expires_at` quarantines until taken out. */
  async quarantine(
    caller: Caller,
    projectId: string,
    testCaseId: string,
    dto: QuarantineDto,
  ): Promise<QuarantineEntryResponse> {
    const { organizationId } = await this.projects.find(caller, projectId);
    const expiresAt = dto.expires_at == null ? null : parseTimestamp(dto.expires_at);
    return this.transactions.run(async () => {
      const row = await this.entries.quarantine(
        organizationId,
        projectId,
        testCaseId,
        dto.reason,
        expiresAt,
      );
      if (!row) throw ApiError.notFound('test_case');
      const entry = toQuarantineEntryResponse(row);
      await this.events.record(organizationId, 'testcase.quarantined.v1', entry);
      return entry;
    });
  }

  async unquarantine(caller: Caller, projectId: string, testCaseId: string): Promise<void> {
    const { organizationId } = await this.projects.find(caller, projectId);
    await this.transactions.run(async () => {
      const row = await this.entries.unquarantine(organizationId, projectId, testCaseId);
      if (!row) throw ApiError.notFound('quarantine_entry');
      await this.events.record(
        organizationId,
        'testcase.unquarantined.v1',
        toQuarantineEntryResponse(row),
      );
    });
  }

  /** A test case with its organization and quarantine state (404 if the caller may not see it). */
  async testCase(caller: Caller, testCaseId: string): Promise<InternalTestCaseResponse> {
    const testCase = await this.cases.find(caller, testCaseId);
    const entry = await this.entries.activeEntry(testCase.organizationId, testCase.id);
    return {
      ...toTestCaseResponse(testCase),
      organization_id: testCase.organizationId,
      quarantine: entry === null ? null : toQuarantineEntryResponse(entry),
    };
  }

  /** The project's active entries, newest first. */
  async list(
    caller: Caller,
    projectId: string,
    query: PaginationQuery,
  ): Promise<Page<QuarantineEntryResponse>> {
    const { rows, total } = await this.activePage(caller, projectId, query);
    return toPage(rows.map(toQuarantineEntryResponse), total, query);
  }

  /**
   * For the console: the project's active entries as `list` answers them, each with its case's
   * title and whether the case is on the flaky-tests list (a case may be quarantined for another
   * cause).
   */
  async listWithCases(
    caller: Caller,
    projectId: string,
    query: PaginationQuery,
  ): Promise<Page<InternalQuarantineEntryResponse>> {
    const { organizationId, rows, total } = await this.activePage(caller, projectId, query);
    const { flaky } = await this.flakyTests.markers(
      organizationId,
      projectId,
      rows.map((row) => row.test_case_id),
    );
    const entries = rows.map((row) => ({
      ...toQuarantineEntryResponse(row),
      title: row.title,
      flaky: flaky.has(row.test_case_id),
    }));
    return toPage(entries, total, query);
  }

  /** The ids of the project's cases in quarantine now (a release's progress marks their failures). */
  activeCases(organizationId: string, projectId: string): Promise<string[]> {
    return this.entries.activeCases(organizationId, projectId);
  }

  /** A page of the project's active entries (404 if the caller may not see the project). */
  private async activePage(
    caller: Caller,
    projectId: string,
    query: PaginationQuery,
  ): Promise<{ organizationId: string; rows: ListedQuarantineRow[]; total: number }> {
    const { organizationId } = await this.projects.find(caller, projectId);
    const page = await this.entries.listActive(
      organizationId,
      projectId,
      query.limit,
      query.offset,
    );
    return { organizationId, ...page };
  }
}
