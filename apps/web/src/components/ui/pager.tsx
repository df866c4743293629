import { Button } from './button.tsx';

/**
 * Previous / "Page n of N" / Next for a paged list; hidden when there is one page.
 * `onLight` for lists inside a white card, otherwise the text sits on the purple backdrop.
 */
export function Pager({
  label,
  page,
  pages,
  onPage,
  onLight = false,
}: {
  label: string;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  onLight?: boolean;
}) {
  if (pages <= 1) return null;
  return (
    <nav
      aria-label={label}
      className={`mt-4 flex items-center gap-3 text-sm ${onLight ? 'justify-between text-slate-600' : 'justify-center text-white'}`}
    >
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(Math.max(1, page - 1))}>
        Previous
      </Button>
      <span>
        Page {page} of {pages}
      </span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(Math.min(pages, page + 1))}>
        Next
      </Button>
    </nav>
  );
}
