import { Suspense } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { Tabs } from '../../../components/ui/tabs.tsx';
import { LoadingScreen } from '../../../components/ui/loading-screen.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { DemoBanner } from './parts/demo-banner.tsx';
import { ADMIN_TABS, INVESTOR_TABS, type TabDef } from './tabs.tsx';
import { can } from '@harvest/shared/staff';
import { t } from '../../../lib/i18n.tsx';

/**
 * Protected: investors and admins each get their tab bar (arrow keys, Home and End move between tabs);
 * the chosen tab lives in the URL, one history entry per tab, so Back returns to the previous tab. On a phone
 * the tabs sit in rows of three: every label whole, nothing hidden off the edge.
 */
export function Component() {
  const { status, user, platform } = useAuth();
  const [params, setParams] = useSearchParams();
  if (status !== 'authenticated' || !user) return <Navigate to="/login" replace />;
  const tabs: TabDef[] = user.isAdmin ? ADMIN_TABS.filter((tab) => can(user.role, tab.needs ?? 'read')) : INVESTOR_TABS;
  const current = tabs.find((tab) => tab.id === params.get('tab')) ?? tabs[0];
  if (!current) return null;
  const Tab = current.component;
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="mb-4 text-2xl font-bold text-white">
        {user.isAdmin ? t('Back office: {section}', { section: current.label() }) : current.label()}
      </h1>
      {platform?.demoDeposits && <DemoBanner admin={user.isAdmin} />}
      <Tabs
        label={t('Dashboard sections')}
        tabs={tabs.map((tab) => ({ id: tab.id, label: tab.label() }))}
        value={current.id}
        onChange={(id) => setParams({ tab: id })}
        listWrapperClassName="mb-6"
        listClassName="grid grid-cols-3 gap-1 rounded-xl bg-purple-950/50 p-1 sm:flex sm:flex-wrap"
        // On a phone a long label (Arabic "Withdrawals") takes two lines rather than run out of its tab.
        tabClassName="rounded-lg px-1 py-2 text-sm leading-tight font-semibold text-white sm:whitespace-nowrap transition hover:bg-white/20 sm:px-4 data-[state=active]:bg-white data-[state=active]:text-purple-900 data-[state=active]:shadow"
      >
        <Suspense fallback={<LoadingScreen />}>
          <Tab />
        </Suspense>
      </Tabs>
    </div>
  );
}
