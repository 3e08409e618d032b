import { jest } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { RunLiveService } from '../../src/testruns/live/run-live.service.js';
import { TestRunLookup } from '../../src/testruns/test-run-lookup.js';
import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import {
  ADMIN_TOKEN,
  HTTPS,
  OPERATOR,
  listenOnLoopback,
  startApp,
  type TestApp,
} from '../support/app.js';
import { MAX_LIVE_VIEWERS_PER_HOLDER } from '../../src/testruns/live/live-slots.js';

/** Retries `assertion` until it passes (10 s at most): events arrive after the change commits. */
async function eventually(assertion: () => void, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';
/** Heartbeats this often here, so that a signed-out session's stream ends within a test. */
const HEARTBEAT_MS = 200;

interface RunEvent {
  id: string;
  project_id: string;
  status: string;
  counts: Record<string, number>;
}

/** An open `GET …/live`: the `run` events received so far, parsed. */
class LiveView {
  readonly events: RunEvent[] = [];
  /** Whether the service has ended the stream. */
  ended = false;
  private buffer = '';
  constructor(readonly response: IncomingMessage) {
    response.on('end', () => (this.ended = true));
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const message = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const type = /^event: (.*)$/m.exec(message)?.[1];
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (type === 'run' && data) this.events.push(JSON.parse(data) as RunEvent);
      }
    });
  }
  get last(): RunEvent | undefined {
    return this.events[this.events.length - 1];
  }
  close(): void {
    this.response.destroy();
  }
}

describe('a test run, live (GET /internal/v1/testruns/{id}/live)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startApp({ LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS) });
    port = await listenOnLoopback(t);
  });
  afterAll(() => t.close());

  function open(runId: string, headers: Record<string, string> = OPERATOR) {
    return openPath(`/internal/v1/testruns/${runId}/live`, headers);
  }

  function openPath(path: string, headers: Record<string, string> = OPERATOR) {
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers }, resolve);
      req.on('error', reject);
      req.end();
    });
  }

  async function runWithKey() {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id);
    return { key, run };
  }

  it('sends the run at once, then its counts after each batch and its status after each move', async () => {
    const { key, run } = await runWithKey();
    const response = await open(run.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const view = new LiveView(response);
    // A second viewer of the same run gets the same events from the same reads.
    const other = new LiveView(await open(run.id));
    try {
      await eventually(() => expect(view.last).toMatchObject({ status: 'in_progress' }));
      expect(view.last?.counts.total).toBe(0);

      const batch = (from: number, status: string) =>
        Array.from({ length: 5 }, (_, i) => ({ automation_id: `live.case.${from + i}`, status }));
      expect((await submitResults(t, key, run.id, batch(0, 'passed'))).status).toBe(201);
      await eventually(() => expect(view.last?.counts).toMatchObject({ total: 5, passed: 5 }));
      expect((await submitResults(t, key, run.id, batch(5, 'failed'))).status).toBe(201);
      await eventually(() =>
        expect(view.last?.counts).toMatchObject({ total: 10, passed: 5, failed: 5 }),
      );

      const moved = await t.http
        .patch(`/api/v1/testruns/${run.id}`)
        .set({ ...OPERATOR, Authorization: `Bearer ${key}` })
        .send({ status: 'submitted' });
      expect(moved.status).toBe(200);
      await eventually(() => expect(view.last?.status).toBe('submitted'));
      await eventually(() =>
        expect(other.last).toMatchObject({ status: 'submitted', counts: { total: 10 } }),
      );
    } finally {
      view.close();
      other.close();
    }
  });

  it('answers 404 in the error envelope for no such run, and 401 without the operator', async () => {
    const missing = await t.http.get(`/internal/v1/testruns/${UNKNOWN_ID}/live`).set(OPERATOR);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'not_found', details: { resource: 'test_run' } });

    const { key, run } = await runWithKey();
    const withApiKey = await open(run.id, { ...OPERATOR, Authorization: `Bearer ${key}` });
    expect(withApiKey.statusCode).toBe(401);
    withApiKey.resume();
  });

  it('keeps no viewer that left before its stream began', async () => {
    const live = t.app.get(RunLiveService);
    const { run } = await runWithKey();
    // Each request is cut off at once: most are gone before the run has been read, when
    // their `close` has already been emitted.
    await Promise.all(
      Array.from(
        { length: 40 },
        () =>
          new Promise<void>((resolve) => {
            const req = request({
              host: '127.0.0.1',
              port,
              path: `/internal/v1/testruns/${run.id}/live`,
              headers: OPERATOR,
            });
            req.on('error', () => resolve());
            req.on('close', () => resolve());
            req.end(() => setImmediate(() => req.destroy()));
          }),
      ),
    );
    await eventually(() => expect(live.viewing).toBe(0));
    // And the stream still opens for the next viewer.
    const view = new LiveView(await open(run.id));
    await eventually(() => expect(view.events.length).toBeGreaterThan(0));
    view.close();
    await eventually(() => expect(live.viewing).toBe(0));
  });

  it('lets go of a viewer that left', async () => {
    const live = t.app.get(RunLiveService);
    const { run } = await runWithKey();
    const view = new LiveView(await open(run.id));
    await eventually(() => expect(view.events.length).toBeGreaterThan(0));
    expect(live.viewing).toBe(1);
    view.close();
    await eventually(() => expect(live.viewing).toBe(0));
  });

  describe('held by a console session or the operator token', () => {
    const SESSION = '/internal/v1/session';
    /** Signs in with the token as the console does: the session's cookie and CSRF token. */
    async function signIn(): Promise<{ cookie: Record<string, string>; csrf: string }> {
      const res = await t.http.post(SESSION).set(HTTPS).send({ token: ADMIN_TOKEN });
      expect(res.status).toBe(201);
      const cookie = String(res.headers['set-cookie']).split(';')[0];
      return { cookie: { ...HTTPS, Cookie: cookie }, csrf: res.body.csrf_token };
    }

    it('ends a stream once its session is signed out, and one whose session expired; the operator token’s goes on', async () => {
      const { key, run } = await runWithKey();
      const first = await signIn();
      const second = await signIn();
      const signedOut = new LiveView(await open(run.id, first.cookie));
      const expiring = new LiveView(await open(run.id, second.cookie));
      const token = new LiveView(await open(run.id));
      try {
        for (const view of [signedOut, expiring, token]) {
          expect(view.response.statusCode).toBe(200);
          await eventually(() => expect(view.events.length).toBeGreaterThan(0));
        }
        // Several heartbeats pass: a live session's stream stays open.
        await new Promise((resolve) => setTimeout(resolve, 3 * HEARTBEAT_MS));
        expect([signedOut.ended, expiring.ended]).toEqual([false, false]);

        await t.http
          .delete(SESSION)
          .set({ ...first.cookie, 'X-CSRF-Token': first.csrf })
          .expect(204);
        await eventually(() => expect(signedOut.ended).toBe(true), 5 * HEARTBEAT_MS + 2_000);
        expect(expiring.ended).toBe(false);

        // The table keeps the HMAC of the cookie's secret, keyed with the operator token.
        const secret = second.cookie.Cookie.split('=')[1];
        await t.app
          .get(DataSource)
          .query(
            `UPDATE console_session SET expires_at = now() - interval '1 second' WHERE secret_hash = $1`,
            [createHmac('sha256', ADMIN_TOKEN).update(secret).digest('hex')],
          );
        await eventually(() => expect(expiring.ended).toBe(true), 5 * HEARTBEAT_MS + 2_000);

        // The operator token cannot be signed out: its stream still sends.
        const batch = [{ automation_id: 'live.held.a', status: 'passed' }];
        expect((await submitResults(t, key, run.id, batch)).status).toBe(201);
        await eventually(() => expect(token.last?.counts.total).toBe(1));
        expect(token.ended).toBe(false);
        // And a signed-out session opens nothing again (what the EventSource's reconnect meets).
        const again = await open(run.id, first.cookie);
        expect(again.statusCode).toBe(401);
        again.resume();
      } finally {
        signedOut.close();
        expiring.close();
        token.close();
      }
      await eventually(() => expect(t.app.get(RunLiveService).viewing).toBe(0));
    });

    it(`lets one holder keep at most ${MAX_LIVE_VIEWERS_PER_HOLDER} streams: past them 429 with Retry-After, while others still get theirs`, async () => {
      const { org, key } = await createTenant(t, RUN_SCOPES);
      const project = await createProject(t, org.id);
      const run = await createRun(t, key, project.id);
      const views: LiveView[] = [];
      try {
        for (let i = 0; i < MAX_LIVE_VIEWERS_PER_HOLDER; i++) {
          const response = await open(run.id);
          expect(response.statusCode).toBe(200);
          views.push(new LiveView(response));
        }
        const refused = await t.http.get(`/internal/v1/testruns/${run.id}/live`).set(OPERATOR);
        expect(refused.status).toBe(429);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.body).toEqual({
          error: 'rate_limit_exceeded',
          message: expect.stringContaining('Too many live views'),
          details: { limit: MAX_LIVE_VIEWERS_PER_HOLDER, retry_after: 5, window: 'live_streams' },
        });
        const projectPath = `/internal/v1/projects/${project.id}/testruns/live`;
        expect((await t.http.get(projectPath).set(OPERATOR)).status).toBe(429);

        // A console session is another holder: it gets its stream.
        const session = await signIn();
        const own = new LiveView(await open(run.id, session.cookie));
        views.push(own);
        expect(own.response.statusCode).toBe(200);

        // Once one of the token's streams is closed, it may open another.
        views[0].close();
        await eventually(() =>
          expect(t.app.get(RunLiveService).viewing).toBe(MAX_LIVE_VIEWERS_PER_HOLDER),
        );
        const reopened = new LiveView(await open(run.id));
        views.push(reopened);
        expect(reopened.response.statusCode).toBe(200);
      } finally {
        for (const view of views) view.close();
      }
      await eventually(() => expect(t.app.get(RunLiveService).viewing).toBe(0));
    }, 30_000);
  });

  describe("a project's runs, live (GET /internal/v1/projects/{id}/testruns/live)", () => {
    it('sends each run of the project after it is created and after each change, and no other project’s', async () => {
      const { org, key } = await createTenant(t, RUN_SCOPES);
      const project = await createProject(t, org.id);
      const elsewhere = await createProject(t, org.id);
      const response = await openPath(`/internal/v1/projects/${project.id}/testruns/live`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
      const view = new LiveView(response);
      try {
        // Nothing at first: the list is read once the stream is open.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(view.events).toEqual([]);

        const run = await createRun(t, key, project.id);
        await eventually(() =>
          expect(view.last).toMatchObject({
            id: run.id,
            project_id: project.id,
            status: 'in_progress',
          }),
        );
        expect(view.last?.counts.total).toBe(0);
        // A change in a project nobody watches is not even read (the NOTIFY names the project).
        const reads = jest.spyOn(t.app.get(TestRunLookup), 'find');
        const other = await createRun(t, key, elsewhere.id);
        const results = [{ automation_id: 'live.project.a', status: 'failed' }];
        expect((await submitResults(t, key, other.id, results)).status).toBe(201);
        expect((await submitResults(t, key, run.id, results)).status).toBe(201);
        await eventually(() =>
          expect(view.last).toMatchObject({ id: run.id, counts: { total: 1, failed: 1 } }),
        );
        expect(view.events.every((event) => event.project_id === project.id)).toBe(true);
        // Its notifications committed before this run's last one, which has arrived.
        expect(reads.mock.calls.map(([, id]) => id)).not.toContain(other.id);
        reads.mockRestore();
      } finally {
        view.close();
      }
    });

    it('answers 404 for no such project and 401 without the operator, and lets go of a viewer that left', async () => {
      const missing = await t.http
        .get(`/internal/v1/projects/${UNKNOWN_ID}/testruns/live`)
        .set(OPERATOR);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error: 'not_found', details: { resource: 'project' } });

      const { org, key } = await createTenant(t, RUN_SCOPES);
      const project = await createProject(t, org.id);
      const path = `/internal/v1/projects/${project.id}/testruns/live`;
      const withApiKey = await openPath(path, { ...OPERATOR, Authorization: `Bearer ${key}` });
      expect(withApiKey.statusCode).toBe(401);
      withApiKey.resume();

      const live = t.app.get(RunLiveService);
      const view = new LiveView(await openPath(path));
      await eventually(() => expect(live.viewing).toBe(1));
      view.close();
      await eventually(() => expect(live.viewing).toBe(0));
    });
  });

  it('catches up once its LISTEN connection is cut: the run is read again, a project’s stream ends so its page reads the list again', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id);
    const runView = new LiveView(await open(run.id));
    const projectStream = await openPath(`/internal/v1/projects/${project.id}/testruns/live`);
    const projectEnded = new Promise((resolve) => projectStream.on('end', resolve));
    projectStream.resume();
    try {
      await eventually(() => expect(runView.last?.counts.total).toBe(0));
      const killed: unknown[] = await t.app
        .get(DataSource)
        .query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN run_changes'`,
        );
      expect(killed).toHaveLength(1);
      // Sent while the listener is down (its NOTIFY lost) or just back: either way it shows.
      const batch = [{ automation_id: 'live.cut.a', status: 'passed' }];
      expect((await submitResults(t, key, run.id, batch)).status).toBe(201);
      await eventually(() => expect(runView.last?.counts.total).toBe(1), 15_000);
      await projectEnded;
    } finally {
      runView.close();
      projectStream.destroy();
    }
  }, 30_000);
});
