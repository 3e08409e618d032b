/**
 * Characters of automation ids and case ids kept per process: about 130,000 cases of 60
 * characters, some 25 MB.
 */
const CAPACITY = 8_000_000;

/**
 * A copy of `value` that shares no memory with the string it was cut from: an automation id
 * taken from a JUnit report is a slice of the whole report, and keeping the slice would keep
 * the report. A JSON round trip makes one flat new string, exactly equal (lone surrogates
 * included): as cheap as copying through a slice, and found faster as a map key than a slice
 * (every batch looks its names up here).
 */
function detached(value: string): string {
  return JSON.parse(JSON.stringify(value)) as string;
}

/** What this process remembers of a project's cases. */
export interface RememberedCases {
  /** Case ids by automation id. */
  readonly ids: ReadonlyMap<string, string>;
  /**
   * False once the project alone outgrew the cache and stopped being added to: a name it does
   * not hold may then well exist (true: one it does not hold is most likely new).
   */
  readonly complete: boolean;
}

interface Project {
  ids: Map<string, string>;
  chars: number;
  complete: boolean;
}

/**
 * Case ids by project and automation id, as found in the database. Pipelines report the same
 * suites run after run, so a batch usually finds every case here instead of looking up
 * 1,000 automation ids. Safe to keep: a case never changes project or automation id, and the
 * API deletes no cases. A case deleted by hand makes the next write that names it fail its
 * reference check (23503); the writer then forgets everything and writes the batch again.
 * Only committed cases are kept: ones read from the database, and ones a batch created once
 * its transaction commits. Bounded by characters: when full, the project used longest ago is
 * forgotten first; a project that alone fills the cache keeps what it has and is marked
 * incomplete.
 */
export class CaseIdCache {
  private readonly projects = new Map<string, Project>();
  private chars = 0;

  constructor(private readonly capacity = CAPACITY) {}

  /** What is remembered of a project's cases (now its most recently used), if anything. */
  of(projectId: string): RememberedCases | undefined {
    const project = this.projects.get(projectId);
    if (project) {
      this.projects.delete(projectId);
      this.projects.set(projectId, project);
    }
    return project;
  }

  remember(projectId: string, automationId: string, caseId: string): void {
    let project = this.projects.get(projectId);
    if (project?.ids.has(automationId)) return;
    const size = automationId.length + caseId.length;
    // Room is made by forgetting other projects, the one used longest ago first.
    for (const [id, other] of this.projects) {
      if (this.chars + size <= this.capacity) break;
      if (id === projectId) continue;
      this.projects.delete(id);
      this.chars -= other.chars;
    }
    if (!project) {
      project = { ids: new Map(), chars: 0, complete: true };
      this.projects.set(projectId, project);
    }
    if (this.chars + size > this.capacity) {
      project.complete = false;
      return;
    }
    project.ids.set(detached(automationId), detached(caseId));
    project.chars += size;
    this.chars += size;
  }

  clear(): void {
    this.projects.clear();
    this.chars = 0;
  }

  /** Characters held. */
  get size(): number {
    return this.chars;
  }
}
