import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { FIRST_PAGE, type PageAt, type PageCursors } from './paging.ts';

/**
 * Every paged list's state: where it is, its read at that page, its page count and the Pager's props. A new
 * `filter` (a search, a status, the list shown) starts again at the first page; the shown page stays on screen
 * while the next one loads (the Pager's Previous and Next wait meanwhile); a list that shrank under the shown
 * page (rows processed elsewhere) shows its new last page.
 */
export function usePagedQuery<T extends object, K extends QueryKey>(
  read: (at: PageAt) => UseQueryOptions<T, Error, T, K>,
  { pageSize, total, filter = null }: { pageSize: number; total: (data: T) => number; filter?: unknown },
) {
  const key = JSON.stringify(filter);
  const [state, setState] = useState({ key, at: FIRST_PAGE });
  const at = state.key === key ? state.at : FIRST_PAGE;
  const query = useQuery({ ...read(at), placeholderData: keepPreviousData });
  const pages = Math.max(1, Math.ceil((query.data ? total(query.data) : 0) / pageSize));
  const go = useCallback((next: PageAt) => setState({ key, at: next }), [key]);
  const shrank = query.data !== undefined && at.page > pages;
  useEffect(() => {
    if (shrank) go({ page: pages });
  }, [shrank, pages, go]);
  const cursors: PageCursors | undefined = query.data;
  return { query, at, pages, pager: { at, pages, cursors, busy: query.isPlaceholderData, onGo: go } };
}
