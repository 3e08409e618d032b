import { Injectable } from '@nestjs/common';
import { fetchPage, pagedSql } from '../database/paged-sql.js';
import { Transactions } from '../database/transactions.js';
import type { ResultStatus } from './entities/result-status.js';

/**
 * Accented Latin letters (Latin-1 and Latin Extended-A, both cases) and the plain letter each
 * folds to, character for character: "naïve", "NAÏVE" and "naive" all become "naive".
 * `unaccent` would do it, but it is an extension (in contrib, not in every managed
 * PostgreSQL, and not one this project creates anywhere), so the folding is `translate()`
 * with this table, the same on the text and on the search. Ligatures (æ, œ, ß) stay as they are:
 * `translate` maps one character to one.
 */
const FOLDS: Record<string, string> = {
  a: 'àáâãäåāăą',
  c: 'çćĉċč',
  d: 'ďđ',
  e: 'èéêëēĕėęě',
  g: 'ĝğġģ',
  h: 'ĥħ',
  i: 'ìíîïĩīĭįı',
  j: 'ĵ',
  k: 'ķ',
  l: 'ĺļľŀł',
  n: 'ñńņňŉ',
  o: 'òóôõöøōŏő',
  r: 'ŕŗř',
  s: 'śŝşš',
  t: 'ţťŧ',
  u: 'ùúûüũūŭůűų',
  w: 'ŵ',
  y: 'ýÿŷ',
  z: 'źżž',
};
/** Each accented letter, in either case, and its plain letter in the same case. */
const PAIRS = Object.entries(FOLDS).flatMap(([plain, accented]) =>
  [...accented].flatMap((letter) => {
    const upper = letter.toUpperCase();
    // A letter whose capital is not one other character (ŉ's is two, ı's is I) folds in lowercase only.
    const capital = [...upper].length === 1 && upper !== letter && !/[A-Z]/.test(upper);
    return capital
      ? [
          [letter, plain],
          [upper, plain.toUpperCase()],
        ]
      : [[letter, plain]];
  }),
);
const ACCENTED = PAIRS.map(([accented]) => accented).join('');
const PLAIN = PAIRS.map(([, plain]) => plain).join('');

/**
 * `text` lowercased without its accents. The accents go first, both cases in one table, so
 * `lower()` sees only plain letters: it lowercases them whatever the database's `LC_CTYPE`.
 */
export const folded = (text: string): string =>
  `lower(translate(${text}, '${ACCENTED}', '${PLAIN}'))`;

/**
 * The current results of project $1's (organization $2's) latest $4 runs whose message or
 * failure type contains pattern $3 (from `likePattern`) once both are folded (`folded`): case
 * and accents aside. What bounds it: the runs (the latest $4, by `IDX_test_run_project_created`),
 * and in each only the slots whose current result did not pass (`test_run_case` keeps the
 * status, read by the run's part of its key), whose results are then read by their key: a
 * run's failures, not the run. Newest run first, then by title; each message cut to $5
 * characters.
 */
const FAILURE_SEARCH = pagedSql('results.failureSearch', {
  with: `WITH recent AS MATERIALIZED (
           SELECT run.id, run.name, run.created_at FROM test_run run
            WHERE run.project_id = $1 AND run.organization_id = $2
            ORDER BY run.created_at DESC, run.id DESC
            LIMIT $4
         ),
         found AS MATERIALIZED (
           SELECT recent.id AS test_run_id, recent.name AS run_name,
                  recent.created_at AS run_created_at, r.id AS result_id, r.test_case_id,
                  r.configuration, r.status, r.failure_type, left(r.message, $5) AS message,
                  r.created_at
             FROM recent
             JOIN test_run_case c ON c.test_run_id = recent.id AND c.status <> 'passed'
             JOIN test_result r
               ON r.id = c.result_id AND r.test_run_id = c.test_run_id AND r.organization_id = $2
            WHERE ${folded(`coalesce(r.message, '') || ' ' || coalesce(r.failure_type, '')`)}
                  LIKE ${folded('$3')} ESCAPE '\\'
         )`,
  select: `found.*, tc.title, tc.automation_id`,
  from: 'found JOIN test_case tc ON tc.id = found.test_case_id',
  orderBy: 'found.run_created_at DESC, found.test_run_id, tc.title, found.configuration',
  total: 'SELECT count(*) FROM found',
});

/** How much of a found result's message the list shows (its page shows the rest). */
export const MESSAGE_SHOWN = 1000;

/** A result whose error text matched a search. */
export interface FoundFailure {
  test_run_id: string;
  run_name: string;
  run_created_at: Date;
  result_id: string;
  test_case_id: string;
  title: string;
  automation_id: string | null;
  configuration: string;
  status: ResultStatus;
  failure_type: string | null;
  message: string | null;
  created_at: Date;
}

/** The search of a project's recent results by their error text (issue 31). */
@Injectable()
export class FailureSearchRepository {
  constructor(private readonly transactions: Transactions) {}

  /** A page of the matches in the project's latest `runs` runs, and the number of all. */
  page(
    organizationId: string,
    projectId: string,
    search: { pattern: string; runs: number },
    page: { limit: number; offset: number },
  ): Promise<[FoundFailure[], number]> {
    return fetchPage<FoundFailure>(
      this.transactions.manager,
      FAILURE_SEARCH,
      [projectId, organizationId, search.pattern, search.runs, MESSAGE_SHOWN],
      page,
    );
  }
}
