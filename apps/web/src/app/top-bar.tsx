import { lazy, Suspense } from 'react';
import { useAuth } from '../lib/auth.tsx';
import { usePageSettled } from '../lib/lazy.ts';
import { t } from '../lib/i18n.tsx';
import { LanguageMenu } from './language-menu.tsx';

// The menu, its dialogs and their libraries load once the page has settled: they are not needed to show it.
const UserControls = lazy(() => import('./user-controls.tsx'));

export function TopBar() {
  const { user, status } = useAuth();
  const settled = usePageSettled();
  const placeholder = <div className="h-10 w-32" aria-hidden="true" />;
  return (
    <header className="sticky top-0 z-20 border-b border-white/15 bg-purple-950">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4">
        <div className="min-w-0">
          <p className="flex items-center gap-2 truncate text-lg font-extrabold text-white">
            <WheatIcon />
            Harvest Farm
          </p>
          <p className="truncate text-xs text-purple-50">{t('Investment Platform')}</p>
        </div>
        <div className="flex items-center gap-2">
          <LanguageMenu />
          {status === 'authenticated' &&
            user &&
            (settled ? (
              <Suspense fallback={placeholder}>
                <UserControls />
              </Suspense>
            ) : (
              placeholder
            ))}
        </div>
      </div>
    </header>
  );
}

/** The farm mark, drawn inline so it renders without an emoji font. */
function WheatIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      width="22"
      height="22"
      fill="none"
      stroke="#fbbf24"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M12 22V8" />
      <path d="M12 8c0-2.5 1.5-4.5 4-5 0 2.5-1.5 4.5-4 5Z" fill="#fbbf24" />
      <path d="M12 8c0-2.5-1.5-4.5-4-5 0 2.5 1.5 4.5 4 5Z" fill="#fbbf24" />
      <path d="M12 13c0-2.5 1.5-4.5 4-5 0 2.5-1.5 4.5-4 5Z" fill="#fbbf24" />
      <path d="M12 13c0-2.5-1.5-4.5-4-5 0 2.5 1.5 4.5 4 5Z" fill="#fbbf24" />
      <path d="M12 18c0-2.5 1.5-4.5 4-5 0 2.5-1.5 4.5-4 5Z" fill="#fbbf24" />
      <path d="M12 18c0-2.5-1.5-4.5-4-5 0 2.5 1.5 4.5 4 5Z" fill="#fbbf24" />
    </svg>
  );
}
