/** Characters of automation ids and case ids kept per process: a few megabytes. */
const CAPACITY = 4_000_000;

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

/**
 * Case ids by project and automation id, as found in the database. Pipelines report the same
 * suites run after run, so a batch usually finds every case here instead of looking up
 * 1,000 automation ids. Safe to keep: a case never changes project or automation id, and the
 * API deletes no cases. A case deleted by hand makes the next write that names it fail its
 * reference check (23503); the writer then forgets everything and writes the batch again.
 * Only committed cases are kept: ones read from the database, and ones a batch created once
 * its transaction commits. Bounded by characters: when full, the project remembered longest
 * ago is forgotten first.
 */
export class CaseIdCache {
  private readonly projects = new Map<string, { ids: Map<string, string>; chars: number }>();
  private chars = 0;

  constructor(private readonly capacity = CAPACITY) {}

  /** The remembered case ids of a project by automation id, or undefined if none is. */
  of(projectId: string): ReadonlyMap<string, string> | undefined {
    return this.projects.get(projectId)?.ids;
  }

  remember(projectId: string, automationId: string, caseId: string): void {
    let project = this.projects.get(projectId);
    if (project?.ids.has(automationId)) return;
    const size = automationId.length + caseId.length;
    while (this.chars + size > this.capacity && this.projects.size > 0) {
      const [oldest, dropped] = this.projects.entries().next().value as [string, { chars: number }];
      this.projects.delete(oldest);
      this.chars -= dropped.chars;
      if (oldest === projectId) project = undefined;
    }
    if (!project) {
      project = { ids: new Map(), chars: 0 };
      this.projects.set(projectId, project);
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
