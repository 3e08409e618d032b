import { ReporterError } from './errors.js';

/**
 * The most pages tm-report reads of one list: every call counts against the organization's
 * monthly quota (a Pro plan has 1,000), and a server that says `has_more` for ever must not
 * make it call for ever.
 */
export const MAX_PAGES = 100;

interface Page {
  data?: unknown;
  pagination?: { has_more?: unknown };
}

/**
 * Checks page number `read` (1-based) of `what`, asked with `limit`, before the next is asked
 * for: a list the service could not have answered stops with an error that says why.
 */
export function checkPage(what: string, page: Page, read: number, limit: number): void {
  const items = Array.isArray(page.data) ? page.data.length : undefined;
  if (items === undefined || typeof page.pagination?.has_more !== 'boolean') {
    throw new ReporterError(
      `${what} answered without a page's data and pagination: check that TM_URL is the service's address.`,
    );
  }
  if (items > limit) {
    throw new ReporterError(
      `${what} answered ${items} items for a page of at most ${limit}: check that TM_URL is the service's address.`,
    );
  }
  if (!page.pagination.has_more) return;
  if (items === 0) {
    throw new ReporterError(
      `${what} says more items follow but sent none on page ${read}; stopped asking: check that TM_URL is the service's address.`,
    );
  }
  if (read >= MAX_PAGES) {
    throw new ReporterError(
      `${what} still says more items follow after ${MAX_PAGES} pages (${MAX_PAGES * limit} items); stopped asking, since every call counts against the monthly quota.`,
    );
  }
}
