import { FIRST_PAGE, nextPage, prevPage, type PageAt, type PageCursors } from '../../lib/paging.ts';
import { Button } from './button.tsx';
import { t } from '../../lib/i18n.tsx';

/**
 * First / Previous / "Page n of N" / Next / Last for a paged back-office list; hidden when there is one
 * page. Previous and Next pass the shown page's cursors (lib/paging.ts), so they wait for the page asked
 * for to arrive; First and Last send the page number (read from the nearer end of the list).
 * `onLight` for lists inside a white card, otherwise the text sits on the purple backdrop.
 */
export function Pager({
  label,
  at,
  pages,
  cursors,
  busy = false,
  onGo,
  onLight = false,
}: {
  label: string;
  at: PageAt;
  pages: number;
  /** The shown page's answer (its nextCursor / prevCursor). */
  cursors: PageCursors | undefined;
  /** The page asked for has not arrived yet (the rows shown are the previous page's): Previous and Next wait. */
  busy?: boolean;
  onGo: (at: PageAt) => void;
  onLight?: boolean;
}) {
  if (pages <= 1) return null;
  const page = Math.min(at.page, pages);
  const atFirst = page <= 1;
  const atLast = page >= pages;
  return (
    <nav
      aria-label={label}
      aria-busy={busy}
      className={`mt-4 flex flex-wrap items-center gap-2 text-sm ${onLight ? 'justify-between text-slate-600' : 'justify-center text-white'}`}
    >
      <div className="flex gap-2">
        <Button variant="secondary" disabled={atFirst} onClick={() => onGo(FIRST_PAGE)}>
          {t('First')}
        </Button>
        <Button variant="secondary" disabled={atFirst || busy} onClick={() => onGo(prevPage(at, cursors))}>
          {t('Previous')}
        </Button>
      </div>
      <span>{t('Page {page} of {pages}', { page, pages })}</span>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={atLast || busy} onClick={() => onGo(nextPage(at, cursors))}>
          {t('Next')}
        </Button>
        <Button variant="secondary" disabled={atLast} onClick={() => onGo({ page: pages })}>
          {t('Last')}
        </Button>
      </div>
    </nav>
  );
}
