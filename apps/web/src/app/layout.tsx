import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { LoadingScreen } from '../components/ui/loading-screen.tsx';
import { Toasts } from '../components/ui/toasts.tsx';
import { useAuth } from '../lib/auth.tsx';
import { TopBar } from './top-bar.tsx';
import { t } from '../lib/i18n.tsx';

// Only a blocked account sees it: not part of everyone's first load.
const BlockedScreen = lazy(() => import('./blocked-screen.tsx').then((m) => ({ default: m.BlockedScreen })));

/**
 * Full-screen gradient backdrop, a skip link, the top bar, the page in <main>, toasts top-right for 3 s;
 * a blocked user sees only the blocked screen. After every navigation focus moves to the page's h1, so a
 * screen reader announces the new page and the keyboard starts from its top.
 */
export function Layout() {
  const { status, refresh } = useAuth();
  const location = useLocation();
  useEffect(() => focusHeadingWhenShown(), [location.pathname, status]);

  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-purple-900 focus:not-sr-only focus:fixed focus:top-2 focus:start-2"
      >
        {t('Skip to content')}
      </a>
      <TopBar />
      <main id="main" tabIndex={-1} className="outline-none">
        {status === 'loading' ? (
          <LoadingScreen />
        ) : status === 'blocked' ? (
          <Suspense fallback={<LoadingScreen />}>
            <BlockedScreen />
          </Suspense>
        ) : status === 'unreachable' ? (
          <div className="mx-auto max-w-md px-4 py-16">
            <div className="rounded-2xl bg-white p-6 text-center shadow-2xl">
              <h1 className="text-xl font-bold text-slate-900">{t('Cannot reach Harvest Farm')}</h1>
              <p className="mt-2 text-slate-700">
                {t('The server did not answer. You are still signed in: try again in a moment.')}
              </p>
              <Button className="mt-4" onClick={() => void refresh()}>
                {t('Retry')}
              </Button>
            </div>
          </div>
        ) : (
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <Toasts />
    </div>
  );
}

/**
 * Moves focus to the page's h1 once it is on screen (the page may still be loading its chunk), unless the
 * person already moved focus into the page, or anywhere since the navigation (the header's Invite, pressed
 * while the page still loads, keeps it). Gives up after 5 s. The focus itself waits for the next frame:
 * focusing makes the browser compute styles and layout at once, which inside React's commit lengthened
 * the page's longest task; in the frame they are computed anyway.
 */
function focusHeadingWhenShown(): () => void {
  const main = document.getElementById('main');
  if (!main) return () => undefined;
  const before = document.activeElement;
  let frame = 0;
  const focusInNextFrame = (h1: HTMLElement) => {
    frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      const chosen =
        active && active !== document.body && active !== main && (main.contains(active) || active !== before);
      if (!h1.isConnected || chosen) return;
      if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
      h1.focus({ preventScroll: true });
    });
  };
  const heading = () => main.querySelector<HTMLElement>('h1');
  const shown = heading();
  if (shown) {
    focusInNextFrame(shown);
    return () => cancelAnimationFrame(frame);
  }
  const observer = new MutationObserver(() => {
    const h1 = heading();
    if (!h1) return;
    observer.disconnect();
    focusInNextFrame(h1);
  });
  observer.observe(main, { childList: true, subtree: true });
  const timer = setTimeout(() => observer.disconnect(), 5_000);
  return () => {
    observer.disconnect();
    clearTimeout(timer);
    cancelAnimationFrame(frame);
  };
}
