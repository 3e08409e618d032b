/** Entries kept per process: about 10 MB. */
const CAPACITY = 50_000;

/**
 * Case ids by project and automation id, as found in the database. Pipelines report the same
 * suites run after run, so a batch usually finds every case here instead of looking up
 * 1,000 automation ids. Safe to keep: a case never changes project or automation id, and the
 * API deletes no cases. A case deleted by hand makes the next write that names it fail its
 * reference check (23503), and the writer then forgets everything. Only cases read from
 * committed rows are kept, never ones a still-open transaction created. Bounded: the oldest
 * entries go first.
 */
export class CaseIdCache {
  private readonly ids = new Map<string, string>();

  constructor(private readonly capacity = CAPACITY) {}

  get(projectId: string, automationId: string): string | undefined {
    return this.ids.get(`${projectId}/${automationId}`);
  }

  remember(projectId: string, automationId: string, caseId: string): void {
    const key = `${projectId}/${automationId}`;
    if (this.ids.has(key)) return;
    if (this.ids.size >= this.capacity) {
      const oldest = this.ids.keys().next().value as string;
      this.ids.delete(oldest);
    }
    this.ids.set(key, caseId);
  }

  clear(): void {
    this.ids.clear();
  }

  get size(): number {
    return this.ids.size;
  }
}
