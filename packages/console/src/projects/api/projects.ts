import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';
import { useSubmissionKey } from '../../shared/api/submissions';

export type Project = components['schemas']['ProjectResponse'];
export type GateSettings = components['schemas']['ProjectGateSettingsResponse'];
export type UpdateGateSettings = components['schemas']['UpdateGateSettingsDto'];

const PROJECTS = 'projects';

/** An organization's projects, newest first. */
export const organizationProjects = (
  organizationId: string,
  page: { limit: number; offset: number },
) =>
  queryOptions({
    queryKey: [PROJECTS, 'of-organization', organizationId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/organizations/{id}/projects', {
          params: { path: { id: organizationId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** One project, with the organization it belongs to. */
export const project = (id: string) =>
  queryOptions({
    queryKey: [PROJECTS, 'one', id],
    queryFn: () => unwrap(api.GET('/internal/v1/projects/{id}', { params: { path: { id } } })),
  });

/** Sets where the project's defects live (null: nowhere); the service checks the template. */
export function useSetDefectUrlTemplate(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: string | null) =>
      unwrap(
        api.PATCH('/internal/v1/projects/{id}/defect-url-template', {
          params: { path: { id: projectId } },
          body: { defect_url_template: template },
        }),
      ),
    onSuccess: (changed) => {
      queryClient.setQueryData(project(projectId).queryKey, changed);
      // A result's defect links are made with the template.
      return queryClient.invalidateQueries({ queryKey: ['result'] });
    },
  });
}

/** How long the project keeps its runs (null: every run), as the worker's sweep reads it. */
export const retention = (projectId: string) =>
  queryOptions({
    queryKey: [PROJECTS, 'retention', projectId],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/retention', { params: { path: { id: projectId } } }),
      ),
  });

/**
 * Sets how many days the project keeps its runs (null: every run); text that is not a number
 * is sent as it is, for the service's refusal.
 */
export function useSetRetention(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (days: number | string | null) =>
      unwrap(
        api.PATCH('/internal/v1/projects/{id}/retention', {
          params: { path: { id: projectId } },
          body: { retention_days: days as number | null },
        }),
      ),
    onSuccess: (changed) => queryClient.setQueryData(retention(projectId).queryKey, changed),
  });
}

export type CreateProject = components['schemas']['CreateProjectDto'];

export function useCreateProject(organizationId: string) {
  const queryClient = useQueryClient();
  const keyFor = useSubmissionKey();
  return useMutation({
    mutationFn: async (body: CreateProject) =>
      unwrap(
        api.POST('/internal/v1/organizations/{id}/projects', {
          params: { path: { id: organizationId } },
          body,
          headers: await keyFor(body),
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [PROJECTS] }),
  });
}

/** The project's quality gate settings (CONTRACT §12), as the gate reads them. */
export const gateSettings = (projectId: string) =>
  queryOptions({
    queryKey: [PROJECTS, 'gate-settings', projectId],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/gate-settings', {
          params: { path: { id: projectId } },
        }),
      ),
  });

/** Changes the gate settings sent (the others are kept); the service judges each value. */
export function useUpdateGateSettings(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateGateSettings) =>
      unwrap(
        api.PATCH('/internal/v1/projects/{id}', { params: { path: { id: projectId } }, body }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(gateSettings(projectId).queryKey, saved);
      return queryClient.invalidateQueries({ queryKey: [PROJECTS, 'one', projectId] });
    },
  });
}
