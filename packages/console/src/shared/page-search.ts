/** A page's place in a list, from `?offset=`: a whole number; none on the first page. */
export function pageSearch(search: Record<string, unknown>): { offset?: number } {
  const offset = Number(search.offset);
  return Number.isInteger(offset) && offset > 0 ? { offset } : {};
}

/** `?offset=` and `?status=`, the status one of `names` (any other is dropped). */
export function filteredPageSearch<S extends string>(names: Record<S, string>) {
  return (search: Record<string, unknown>): { offset?: number; status?: S } => {
    const status = search.status;
    return typeof status === 'string' && Object.hasOwn(names, status)
      ? { ...pageSearch(search), status: status as S }
      : pageSearch(search);
  };
}

/** `?offset=` and `?q=` (a search text, kept when it is not blank). */
export function searchedPageSearch(search: Record<string, unknown>): {
  offset?: number;
  q?: string;
} {
  const q = typeof search.q === 'string' ? search.q.trim() : '';
  return q === '' ? pageSearch(search) : { ...pageSearch(search), q };
}
