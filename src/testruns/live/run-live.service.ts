import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Observable, type Subscriber } from 'rxjs';
import { OPERATOR } from '../../common/caller.js';
import { Settings } from '../../config/settings.js';
import { ChannelListener } from '../../database/notifications.js';
import { ProjectLookup } from '../../projects/project-lookup.js';
import type { TestRunResponse } from '../dto/test-run.dto.js';
import { TestRunLookup } from '../test-run-lookup.js';
import { toTestRunResponse } from '../test-run-response.js';
import { LiveSlots } from './live-slots.js';
import { RUN_CHANGES_CHANNEL, runChangeOf, type RunChange } from './run-changes.js';

/**
 * Runs as they change, for the console's live run pages and project run lists. One LISTEN
 * connection per process (`RUN_CHANGES_CHANNEL`, sent by every result batch and status change
 * when it commits) feeds every viewer: a change is read once per process and run, however many
 * watch it (the run's own viewers and its project's), and never polled. Reads of one run do not
 * pile up: while one is in flight, further changes make one more read after it. A change of a
 * run nobody watches, in a project nobody watches, is not read at all. Each viewer takes a slot
 * of its holder (`LiveSlots`: a console session or the operator token, named by the caller).
 */
@Injectable()
export class RunLiveService implements OnApplicationShutdown {
  private readonly logger = new Logger(RunLiveService.name);
  private listener: ChannelListener | null = null;
  private readonly viewers = new Map<string, Set<Subscriber<TestRunResponse>>>();
  private readonly projectViewers = new Map<string, Set<Subscriber<TestRunResponse>>>();
  private viewerCount = 0;
  private readonly slots = new LiveSlots();
  private readonly reading = new Map<string, Promise<void>>();
  private readonly readAgain = new Set<string>();

  constructor(
    private readonly settings: Settings,
    private readonly runs: TestRunLookup,
    private readonly projects: ProjectLookup,
  ) {}

  /** How many viewers are open in this process. */
  get viewing(): number {
    return this.viewerCount;
  }

  /**
   * The run now, then after every change, until the viewer leaves (404 for no such run), for
   * `holder` (429 past its share of the process's streams).
   */
  async watch(holder: string, runId: string): Promise<Observable<TestRunResponse>> {
    const first = toTestRunResponse(
      await this.admitted(holder, () => this.runs.find(OPERATOR, runId)),
    );
    return this.join(holder, this.viewers, runId, (subscriber) => {
      subscriber.next(first);
      // A change may have committed between the first read and joining: read once more.
      this.read({ runId, projectId: first.project_id });
    });
  }

  /**
   * Each run of the project after every change, until the viewer leaves (404 for no such
   * project). Nothing at first: the viewer reads the list itself once the stream is open.
   */
  async watchProject(holder: string, projectId: string): Promise<Observable<TestRunResponse>> {
    await this.admitted(holder, () => this.projects.organizationOf(projectId));
    return this.join(holder, this.projectViewers, projectId, () => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    for (const group of [this.viewers, this.projectViewers]) {
      for (const viewers of group.values()) for (const viewer of viewers) viewer.complete();
    }
    await this.listener?.stop();
  }

  /** `open()` while there is room for one more viewer of `holder` (429 or 503 otherwise). */
  private async admitted<T>(holder: string, open: () => Promise<T>): Promise<T> {
    // Views being opened count too, or concurrent requests would all pass the check.
    this.slots.admit(holder);
    try {
      return await open();
    } finally {
      this.slots.release(holder);
    }
  }

  /** A viewer of `key` in `group` from subscription until it leaves; `joined` runs first. */
  private join(
    holder: string,
    group: Map<string, Set<Subscriber<TestRunResponse>>>,
    key: string,
    joined: (subscriber: Subscriber<TestRunResponse>) => void,
  ): Observable<TestRunResponse> {
    this.listen();
    return new Observable<TestRunResponse>((subscriber) => {
      let viewers = group.get(key);
      if (!viewers) group.set(key, (viewers = new Set()));
      viewers.add(subscriber);
      this.viewerCount++;
      this.slots.take(holder);
      joined(subscriber);
      return () => {
        this.viewerCount--;
        this.slots.release(holder);
        viewers.delete(subscriber);
        if (viewers.size === 0) group.delete(key);
      };
    });
  }

  private listen(): void {
    if (this.listener) return;
    this.listener = new ChannelListener(this.settings.databaseUrl, RUN_CHANGES_CHANNEL, {
      notification: (payload) => this.read(runChangeOf(payload)),
      // Changes sent before LISTEN took effect are lost: the first viewers joined while it
      // connected, and any connection can drop. Every watched run is read again; after a drop,
      // a project's viewers start again too (their EventSource reconnects and reads the list).
      listening: (first) => {
        this.viewers.forEach((_viewers, runId) => this.read({ runId, projectId: null }));
        if (!first)
          this.projectViewers.forEach((viewers) => viewers.forEach((viewer) => viewer.complete()));
      },
      disconnected: (error) =>
        this.logger.warn(`Live run listener not connected (retrying): ${String(error)}`),
    });
    this.listener.start();
  }

  private watched({ runId, projectId }: RunChange): boolean {
    return this.viewers.has(runId) || (projectId !== null && this.projectViewers.has(projectId));
  }

  private read(change: RunChange): void {
    if (!this.watched(change)) return;
    const { runId } = change;
    if (this.reading.has(runId)) {
      this.readAgain.add(runId);
      return;
    }
    const reading = this.readWhileChanged(runId)
      .catch((error: unknown) => this.logger.warn(`Live run ${runId} not read: ${String(error)}`))
      .finally(() => this.reading.delete(runId));
    this.reading.set(runId, reading);
  }

  private async readWhileChanged(runId: string): Promise<void> {
    let watched: boolean;
    do {
      this.readAgain.delete(runId);
      const run = toTestRunResponse(await this.runs.find(OPERATOR, runId));
      for (const viewer of this.viewers.get(runId) ?? []) viewer.next(run);
      for (const viewer of this.projectViewers.get(run.project_id) ?? []) viewer.next(run);
      watched = this.watched({ runId, projectId: run.project_id });
    } while (this.readAgain.has(runId) && watched);
  }
}
