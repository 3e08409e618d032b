import path from 'node:path';
import type { Evidence, EvidenceContext } from './evidence.js';
import { ctrfEvidence, cucumberEvidence, playwrightEvidence } from './evidence-documents.js';
import { junitEvidence } from './evidence-junit.js';
import type { Report } from './reports.js';

/**
 * The evidence every report names, in the order of the reports: JUnit's `[[ATTACHMENT|…]]`
 * lines, Playwright's, CTRF's and Cucumber's attachments, an Allure folder's (read with it).
 * The other formats name none the reporter reads.
 */
export function evidenceOf(reports: Report[], cwd: string, pathRoot?: string): Evidence[] {
  return reports.flatMap((report) => {
    if (!('bytes' in report)) return report.evidence ?? [];
    const context: EvidenceContext = {
      report: report.file,
      reportDir: path.dirname(path.resolve(cwd, report.file)),
      cwd,
      pathRoot,
    };
    const text = () => report.bytes.toString('utf8').replace(/^\uFEFF/, '');
    switch (report.kind) {
      case 'junit':
        return junitEvidence(text(), context);
      case 'playwright':
        return playwrightEvidence(JSON.parse(text()), context);
      case 'ctrf':
        return ctrfEvidence(JSON.parse(text()), context);
      case 'cucumber':
        return cucumberEvidence(JSON.parse(text()), context);
      default:
        return [];
    }
  });
}
