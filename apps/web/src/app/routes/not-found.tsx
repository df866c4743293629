import { Link, useLocation } from 'react-router';
import { useAuth } from '../../lib/auth.tsx';
import { rich, t } from '../../lib/i18n.tsx';

/** An address the app does not have: say so, and offer the way home (instead of silently landing elsewhere). */
export function Component() {
  const { status } = useAuth();
  const { pathname } = useLocation();
  const home =
    status === 'authenticated'
      ? { to: '/dashboard', label: t('Go to your dashboard') }
      : { to: '/login', label: t('Go to sign in') };
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-md min-w-0 rounded-2xl bg-white p-6 text-center shadow-2xl sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{t('Page not found')}</h1>
        <p className="mt-3 text-slate-700">
          {rich(t('There is no page at <0>{path}</0>. The link may be mistyped or out of date.', { path: pathname }), [
            (text) => (
              <span className="font-mono [overflow-wrap:anywhere]" dir="ltr">
                {text}
              </span>
            ),
          ])}
        </p>
        <Link
          to={home.to}
          className="mt-6 inline-flex min-h-10 items-center justify-center rounded-lg bg-purple-700 px-4 py-2 text-sm font-semibold text-white hover:bg-purple-800"
        >
          {home.label}
        </Link>
      </div>
    </div>
  );
}
