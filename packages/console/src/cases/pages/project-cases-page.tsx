import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { projectCases } from '../api/cases';
import { project } from '../../projects/api/projects';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { BackToRuns, ProjectPageHead } from '../../shared/components/page-head';
import { utcMinute } from '../../shared/formats';

const CASES_PAGE_SIZE = 25;

/** A project's test cases, newest first, searched by title or automation id on the server. */
export function ProjectCasesPage({ id, offset, q }: { id: string; offset: number; q?: string }) {
  const navigate = useNavigate();
  const current = useQuery(project(id));
  const page = useQuery(projectCases(id, { limit: CASES_PAGE_SIZE, offset, q }));
  const [text, setText] = useState(q ?? '');
  const search: Record<string, string> = q ? { q } : {};

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = text.trim();
    void navigate({
      to: '/projects/$projectId/cases',
      params: { projectId: id },
      search: next ? { q: next } : {},
    });
  };

  let body = listState(page, offset, {
    what: 'test cases',
    missing: 'There is no such project.',
    empty: (
      <p>
        {q
          ? `No test case’s title or automation id contains “${q}”.`
          : 'This project has no test cases yet. Pipelines create them as they report results.'}
      </p>
    ),
    pastLast: (
      <PastLast to="/projects/$projectId/cases" params={{ projectId: id }} search={search}>
        This page is past the last test case.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <table className="cases">
          <caption className="visually-hidden">Test cases, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Test case</th>
              <th scope="col">Section</th>
              <th scope="col">Priority</th>
              <th scope="col">Changed (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  <Link to="/cases/$caseId" params={{ caseId: c.id }}>
                    {c.title}
                  </Link>
                  {c.automation_id !== null && c.automation_id !== c.title ? (
                    <div className="automation-id">
                      <code>{c.automation_id}</code>
                    </div>
                  ) : null}
                </th>
                <td>{c.section ?? <span className="muted">—</span>}</td>
                <td>{c.priority}</td>
                <td>{utcMinute.format(new Date(c.updated_at))}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager
          pagination={page.data.pagination}
          to="/projects/$projectId/cases"
          params={{ projectId: id }}
          search={search}
        />
      </>
    );
  }

  return (
    <>
      <ProjectPageHead
        projectId={id}
        project={current.data}
        title="Test cases"
        back={<BackToRuns projectId={id} />}
      />
      <form role="search" className="search" onSubmit={submit}>
        <label htmlFor="case-search">Title or automation id</label>
        <input
          id="case-search"
          type="search"
          name="q"
          maxLength={255}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit">Search</button>
        {q ? (
          <Link
            to="/projects/$projectId/cases"
            params={{ projectId: id }}
            onClick={() => setText('')}
          >
            Clear
          </Link>
        ) : null}
      </form>
      {body}
    </>
  );
}
