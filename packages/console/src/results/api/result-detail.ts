import { queryOptions } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';

export type ResultDetail = components['schemas']['ResultDetailResponse'];
export type DefectLink = components['schemas']['DefectLinkDto'];

/** One result with its case, run, build and defect links (`GET /internal/v1/results/{id}`). */
export const resultDetail = (id: string) =>
  queryOptions({
    queryKey: ['result', id],
    queryFn: () => unwrap(api.GET('/internal/v1/results/{id}', { params: { path: { id } } })),
  });

/**
 * The current results of one case in a run (one per configuration it ran in, or the one in
 * `configuration`): what a row that names a case, not a result, opens.
 */
export const slotResults = (runId: string, testCaseId: string, configuration?: string) =>
  queryOptions({
    queryKey: ['results', runId, 'slot', testCaseId, configuration ?? null],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/testruns/{id}/results', {
          params: {
            path: { id: runId },
            query: { test_case_id: testCaseId, configuration, limit: 100 },
          },
        }),
      ),
  });
