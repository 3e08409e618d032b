import { Link } from '@tanstack/react-router';
import type { ResultDetail } from '../api/result-detail';
import { duration, utcSecond } from '../../shared/formats';

/** Where and when the result ran: its run, configuration, timing, build, branch and commit. */
export function ResultFacts({ result: r }: { result: ResultDetail }) {
  return (
    <dl className="facts-inline result-facts">
      <div>
        <dt>Test run</dt>
        <dd>
          <Link to="/runs/$runId" params={{ runId: r.test_run_id }}>
            {r.test_run_name}
          </Link>
        </dd>
      </div>
      <div>
        <dt>Configuration</dt>
        <dd>{r.configuration ?? <span className="muted">None</span>}</dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>
          {r.duration_ms === null ? <span className="muted">—</span> : duration(r.duration_ms)}
        </dd>
      </div>
      <div>
        <dt>Executed (UTC)</dt>
        <dd>
          {r.executed_at === null ? (
            <span className="muted">Not said</span>
          ) : (
            utcSecond.format(new Date(r.executed_at))
          )}
        </dd>
      </div>
      <div>
        <dt>Reported (UTC)</dt>
        <dd>{utcSecond.format(new Date(r.created_at))}</dd>
      </div>
      <div>
        <dt>Build</dt>
        <dd data-fact="build">
          {r.build === null ? (
            <span className="muted">None</span>
          ) : (
            <>
              {r.build.name}
              {r.build.build_number !== null ? ` #${r.build.build_number}` : null}
            </>
          )}
        </dd>
      </div>
      <div>
        <dt>Branch</dt>
        <dd data-fact="branch">{r.build?.branch ?? <span className="muted">None</span>}</dd>
      </div>
      <div>
        <dt>Commit</dt>
        <dd data-fact="commit">
          {r.build?.commit_sha ? (
            <code>{r.build.commit_sha}</code>
          ) : (
            <span className="muted">None</span>
          )}
        </dd>
      </div>
    </dl>
  );
}
