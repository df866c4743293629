import { Suspense } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { Tabs } from '../../../components/ui/tabs.tsx';
import { LoadingScreen } from '../../../components/ui/loading-screen.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { DemoBanner } from './parts/demo-banner.tsx';
import { ADMIN_TABS, INVESTOR_TABS, type TabDef } from './tabs.tsx';

/**
 * Protected: investors and admins each get their tab bar (arrow keys, Home and End move between tabs);
 * the chosen tab lives in the URL. On a phone the bar scrolls sideways and fades at the edge to say so.
 */
export function Component() {
  const { status, user, platform } = useAuth();
  const [params, setParams] = useSearchParams();
  if (status !== 'authenticated' || !user) return <Navigate to="/login" replace />;
  const tabs: TabDef[] = user.isAdmin ? ADMIN_TABS : INVESTOR_TABS;
  const current = tabs.find((t) => t.id === params.get('tab')) ?? tabs[0];
  if (!current) return null;
  const Tab = current.component;
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="mb-4 text-2xl font-bold text-white">
        {user.isAdmin ? `Back office: ${current.label}` : current.label}
      </h1>
      {platform?.demoDeposits && <DemoBanner admin={user.isAdmin} />}
      <Tabs
        label="Dashboard sections"
        tabs={tabs.map((t) => ({ id: t.id, label: t.label }))}
        value={current.id}
        onChange={(id) => setParams({ tab: id }, { replace: true })}
        listWrapperClassName="relative mb-6"
        listClassName="flex gap-1 overflow-x-auto rounded-xl bg-purple-950/50 p-1 [scrollbar-width:thin]"
        tabClassName="shrink-0 rounded-lg px-4 py-2 text-sm font-semibold whitespace-nowrap text-white transition hover:bg-white/20 data-[state=active]:bg-white data-[state=active]:text-purple-900 data-[state=active]:shadow"
        listDecoration={
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-0 w-10 rounded-r-xl bg-gradient-to-l from-purple-950/80 to-transparent md:hidden"
          />
        }
      >
        <Suspense fallback={<LoadingScreen />}>
          <Tab />
        </Suspense>
      </Tabs>
    </div>
  );
}
