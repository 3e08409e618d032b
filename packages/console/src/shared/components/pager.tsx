import { Link } from '@tanstack/react-router';
import { number } from '../formats';

interface Pagination {
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

/**
 * "1–25 of 42" and links to the previous and next pages (`?offset=` in the URL). `params` are
 * the route's path parameters, `search` the other search parameters the pages keep (a filter).
 */
export function Pager({
  pagination,
  to,
  params,
  search = {},
}: {
  pagination: Pagination;
  to: string;
  params?: Record<string, string>;
  search?: Record<string, string>;
}) {
  const { total, limit, offset, has_more } = pagination;
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav className="pager" aria-label="Pages">
      <span>
        {number.format(first)}–{number.format(last)} of {number.format(total)}
      </span>
      {offset > 0 ? (
        <Link
          to={to}
          params={params}
          search={offset > limit ? { ...search, offset: offset - limit } : search}
          rel="prev"
        >
          Previous
        </Link>
      ) : null}
      {has_more ? (
        <Link to={to} params={params} search={{ ...search, offset: offset + limit }} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
