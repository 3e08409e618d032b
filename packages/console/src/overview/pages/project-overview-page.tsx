import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { project } from '../../projects/api/projects';
import { projectOverview, type Series } from '../api/overview';
import { ChangesSection } from '../components/changes-section';
import { FlakySection } from '../components/flaky-section';
import { LatestRunsTable } from '../components/latest-runs-table';
import { RecurringFailuresSection } from '../components/recurring-failures-section';
import { SeriesChoice } from '../components/series-choice';
import { TrendsSection } from '../components/trends-section';
import { BackToProjects, ProjectPageHead } from '../../shared/components/page-head';
import { Empty, readState } from '../../shared/components/states';

/**
 * A project's first page: the latest run of each run name with its verdict, then for one series
 * (a run name and branch, `?name=` and `?branch=`; by default the latest handed-in run's) its
 * trends, what changed in its latest run and the failures that recur in it, and the project's
 * most flaky tests. Each section reads on its own, so the first shows before the others.
 */
export function ProjectOverviewPage({ id, chosen }: { id: string; chosen?: Series }) {
  const navigate = useNavigate();
  const current = useQuery(project(id));
  const overview = useQuery(projectOverview(id));

  // By default, the series of the latest run handed in (one in progress has no trend yet).
  const runs = overview.data?.latest_runs ?? [];
  const latest = runs.find((run) => run.status !== 'in_progress') ?? runs[0];
  const branch = latest?.build?.branch;
  const series: Series | undefined =
    chosen ?? (latest ? { name: latest.name, ...(branch ? { branch } : {}) } : undefined);

  let body = readState(overview, {
    what: 'the overview',
    missing: 'There is no such project.',
    back: <BackToProjects project={current.data} />,
  });
  if (body === null && overview.isSuccess) {
    body =
      overview.data.latest_runs.length === 0 ? (
        <Empty>
          <p>This project has no test runs yet: its overview fills in as pipelines report runs.</p>
        </Empty>
      ) : (
        <>
          <section className="overview-section" aria-labelledby="latest-title">
            <h2 id="latest-title">Latest run of each name</h2>
            <LatestRunsTable runs={overview.data.latest_runs} />
            <Link to="/projects/$projectId/runs" params={{ projectId: id }}>
              Every test run
            </Link>
          </section>
          {series ? (
            <>
              <div className="overview-series">
                <SeriesChoice
                  series={overview.data.series}
                  value={series}
                  onChange={(next) =>
                    void navigate({
                      to: '/projects/$projectId',
                      params: { projectId: id },
                      search: next,
                    })
                  }
                />
              </div>
              <TrendsSection projectId={id} series={series} />
              <div className="overview-columns">
                <ChangesSection projectId={id} series={series} />
                <RecurringFailuresSection projectId={id} series={series} />
              </div>
            </>
          ) : null}
          <FlakySection projectId={id} />
        </>
      );
  }

  return (
    <>
      <ProjectPageHead
        projectId={id}
        project={current.data}
        title="Overview"
        back={<BackToProjects project={current.data} />}
      />
      {body}
    </>
  );
}
