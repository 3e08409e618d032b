/** Entries kept per process: about 10 MB. */
const CAPACITY = 50_000;

/**
 * Case ids by project and automation id, as found in the database. Pipelines report the same
 * suites run after run, so a batch usually finds every case here instead of looking up
 * 1,000 automation ids. Safe to keep: a case never changes project or automation id, and the
 * API deletes no cases. A case deleted by hand makes the next write that names it fail its
 * reference check (23503), and the writer then forgets everything. Only committed cases are
 * kept: ones read from the database, and ones a batch created once its transaction commits. Bounded: when full,
 * the project remembered longest ago is forgotten first.
 */
export class CaseIdCache {
  private readonly projects = new Map<string, Map<string, string>>();
  private count = 0;

  constructor(private readonly capacity = CAPACITY) {}

  get(projectId: string, automationId: string): string | undefined {
    return this.projects.get(projectId)?.get(automationId);
  }

  /** Whether any case of the project is remembered. */
  knows(projectId: string): boolean {
    return this.projects.has(projectId);
  }

  remember(projectId: string, automationId: string, caseId: string): void {
    let ids = this.projects.get(projectId);
    if (ids?.has(automationId)) return;
    while (this.count >= this.capacity && this.projects.size > 0) {
      const [oldest, dropped] = this.projects.entries().next().value as [
        string,
        Map<string, string>,
      ];
      this.projects.delete(oldest);
      this.count -= dropped.size;
      if (oldest === projectId) ids = undefined;
    }
    if (!ids) {
      ids = new Map();
      this.projects.set(projectId, ids);
    }
    ids.set(automationId, caseId);
    this.count++;
  }

  clear(): void {
    this.projects.clear();
    this.count = 0;
  }

  get size(): number {
    return this.count;
  }
}
