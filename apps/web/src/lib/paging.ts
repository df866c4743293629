/**
 * Where a back-office list is (docs/decisions/0036-keyset-paging.md): the page number shown, and the
 * cursor that reaches it. Next sends `after` the shown page's `nextCursor`, Previous `before` its
 * `prevCursor` (an index range on the server, as fast as page 1 wherever the list is); First and Last
 * send only the page number, which the server reads from the nearer end of the list. A page in the
 * middle is never asked by number: Next and Previous wait for the page they start from.
 */
export interface PageAt {
  page: number;
  after?: string;
  before?: string;
}

/** The cursors a page's answer carries (absent or null when there is no page that way). */
export interface PageCursors {
  nextCursor?: string | null;
  prevCursor?: string | null;
}

export const FIRST_PAGE: PageAt = { page: 1 };

/** The query parameters for a page: the number always (the server echoes it), one cursor at most. */
export function pageParams(at: PageAt, pageSize: number): Record<string, string | number> {
  if (at.after) return { page: at.page, pageSize, after: at.after };
  if (at.before) return { page: at.page, pageSize, before: at.before };
  return { page: at.page, pageSize };
}

/** A query string: the page's parameters first, then `extra` (filters), each in the order given. */
export const pageQuery = (at: PageAt, pageSize: number, extra: Record<string, string | number> = {}) =>
  queryString({ ...pageParams(at, pageSize), ...extra });

export const queryString = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([a, b]) => [a, String(b)])).toString();

export const nextPage = (at: PageAt, cursors: PageCursors | undefined): PageAt =>
  cursors?.nextCursor ? { page: at.page + 1, after: cursors.nextCursor } : { page: at.page + 1 };

export const prevPage = (at: PageAt, cursors: PageCursors | undefined): PageAt =>
  at.page <= 2
    ? FIRST_PAGE
    : cursors?.prevCursor
      ? { page: at.page - 1, before: cursors.prevCursor }
      : { page: at.page - 1 };
