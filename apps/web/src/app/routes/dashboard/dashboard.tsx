import { Suspense } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { LoadingScreen } from '../../../components/ui/loading-screen.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { ADMIN_TABS, INVESTOR_TABS, type TabDef } from './tabs.tsx';

/** Protected: investors and admins each get their tab bar; the chosen tab lives in the URL. */
export function Component() {
  const { status, user } = useAuth();
  const [params, setParams] = useSearchParams();
  if (status !== 'authenticated' || !user) return <Navigate to="/login" replace />;
  const tabs: TabDef[] = user.isAdmin ? ADMIN_TABS : INVESTOR_TABS;
  const current = tabs.find((t) => t.id === params.get('tab')) ?? tabs[0];
  if (!current) return null;
  const Tab = current.component;
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <nav aria-label="Dashboard sections" className="mb-6 overflow-x-auto">
        <div role="tablist" className="flex min-w-max gap-1 rounded-xl bg-white/15 p-1">
          {tabs.map((t) => (
            <button
              key={t.id}
              role="tab"
              type="button"
              aria-selected={t.id === current.id}
              onClick={() => setParams({ tab: t.id }, { replace: true })}
              className={`rounded-lg px-4 py-2 text-sm font-semibold capitalize transition ${t.id === current.id ? 'bg-white text-purple-800 shadow' : 'text-white hover:bg-white/20'}`}
            >
              {t.label}
            </button>
          ))}
        </div>
      </nav>
      <div role="tabpanel" aria-label={current.label}>
        <Suspense fallback={<LoadingScreen />}>
          <Tab />
        </Suspense>
      </div>
    </div>
  );
}
