import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { ResultStatus } from '../results/entities/result-status.js';
import type { StoredResult } from '../results/stored-result.js';
import { COMPARISON, COMPARISON_SUMMARY } from './comparison.sql.js';
import {
  CASE_HISTORY,
  DEFAULT_BASELINE,
  FAILURE_GROUPS,
  GATE_SETTINGS,
  UPDATE_GATE_SETTINGS,
} from './insights.sql.js';

export interface GateSettings {
  gate_min_pass_rate: number | null;
  gate_forbid_missing_tests: boolean;
  gate_min_tests: number;
}

export interface ComparisonCounts {
  new_failures: number;
  still_failing: number;
  fixed: number;
  new_tests: number;
  missing_tests: number;
  flaky: number;
}

export type ListedCategory = 'new_failures' | 'still_failing' | 'fixed';

export interface ComparisonRow extends ComparisonCounts {
  category: ListedCategory | null;
  test_case_id: string;
  /** '' for none. */
  configuration: string;
  automation_id: string | null;
  title: string;
  status: ResultStatus;
  baseline_status: ResultStatus | null;
  message: string | null;
  signature: string | null;
}

/** A stored result with its run; one row with only `total` when the page is empty. */
export interface HistoryRow extends Omit<StoredResult, 'id'> {
  /** Whether the case is the organization's; false: no rows match either. */
  case_found: boolean;
  total: number;
  id: string | null;
  test_run_name: string;
  branch: string | null;
  commit_sha: string | null;
}

export interface FailureGroupRow {
  total: number;
  signature: string | null;
  size: number | null;
  failure_type: string | null;
  message: string | null;
  test_case_ids: string[];
}

export interface HistoryFilters {
  testRunId?: string;
  branch?: string;
  status?: ResultStatus;
  createdAfter?: Date;
  createdBefore?: Date;
  /** '' selects the results without one. */
  configuration?: string;
}

export interface PageWindow {
  limit: number;
  offset: number;
}

export interface GateSettingsRow extends GateSettings {
  id: string;
  name: string;
  key: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Every statement of results intelligence (CONTRACT §12); each takes the organization. */
@Injectable()
export class InsightsRepository {
  constructor(private readonly transactions: Transactions) {}

  private query<T>(text: string, parameters: unknown[]): Promise<T[]> {
    return this.transactions.manager.query(text, parameters);
  }

  async gateSettingsOf(organizationId: string, projectId: string): Promise<GateSettings> {
    const [settings] = await this.query<GateSettings>(GATE_SETTINGS, [projectId, organizationId]);
    return settings;
  }

  async defaultBaseline(organizationId: string, runId: string): Promise<string | null> {
    const [row] = await this.query<{ id: string }>(DEFAULT_BASELINE, [runId, organizationId]);
    return row?.id ?? null;
  }

  caseHistory(
    organizationId: string,
    testCaseId: string,
    filters: HistoryFilters,
    page: PageWindow,
  ): Promise<HistoryRow[]> {
    return this.query<HistoryRow>(CASE_HISTORY, [
      testCaseId,
      organizationId,
      filters.testRunId ?? null,
      filters.branch ?? null,
      filters.status ?? null,
      filters.createdAfter ?? null,
      filters.createdBefore ?? null,
      page.limit,
      page.offset,
      filters.configuration ?? null,
    ]);
  }

  failureGroups(
    organizationId: string,
    runId: string,
    page: PageWindow,
  ): Promise<FailureGroupRow[]> {
    return this.query<FailureGroupRow>(FAILURE_GROUPS, [
      runId,
      organizationId,
      page.limit,
      page.offset,
    ]);
  }

  /** The comparison's rows: the summary on each, and the listed cases (none: one row). */
  comparison(
    organizationId: string,
    runId: string,
    baselineRunId: string | null,
  ): Promise<ComparisonRow[]> {
    return this.query<ComparisonRow>(COMPARISON, [runId, baselineRunId, organizationId]);
  }

  async comparisonSummary(
    organizationId: string,
    runId: string,
    baselineRunId: string | null,
  ): Promise<ComparisonCounts & { unquarantined_new_failures: number }> {
    const [row] = await this.query<ComparisonCounts & { unquarantined_new_failures: number }>(
      COMPARISON_SUMMARY,
      [runId, baselineRunId, organizationId],
    );
    return row;
  }

  /** `minPassRate` undefined keeps the stored value; null clears it. */
  async updateGateSettings(
    projectId: string,
    minPassRate: number | null | undefined,
    forbidMissingTests: boolean | undefined,
    minTests: number | undefined,
  ): Promise<GateSettingsRow | null> {
    const rows = await this.query<GateSettingsRow>(UPDATE_GATE_SETTINGS, [
      projectId,
      minPassRate ?? null,
      forbidMissingTests ?? null,
      minPassRate !== undefined,
      minTests ?? null,
    ]);
    // An UPDATE's result through TypeORM is [rows, affected count].
    const updated = (Array.isArray(rows[0]) ? rows[0] : rows) as GateSettingsRow[];
    return updated[0] ?? null;
  }
}
