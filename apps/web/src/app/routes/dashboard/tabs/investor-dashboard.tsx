import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Card } from '../../../../components/ui/card.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { AccountSummaryCards } from '../../../../features/dashboard/components/account-summary-cards.tsx';
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from '../../../../lib/query-keys.ts';
import { t } from '../../../../lib/i18n.tsx';
import { loadChunk } from '../../../../lib/lazy.ts';

// Below the summary: loaded after it, so the dashboard's first load carries no proof-of-reserves code.
const MyProof = lazy(
  loadChunk(() =>
    import('../../../../features/proof-of-reserves/components/my-proof.tsx').then((m) => ({ default: m.MyProof })),
  ),
);

export default function Tab() {
  const dashboard = useQuery(dashboardQuery());
  return (
    <QueryState
      query={dashboard}
      what={t('your account summary')}
      lines={4}
      frame={(state) => <Card title={t('Your account')}>{state}</Card>}
    >
      {({ accountSummary: s }) => (
        <div className="space-y-4">
          {s.balance === 0 && s.totalInvestment === 0 && s.totalEarnings === 0 && s.referralRewards === 0 && (
            <Card title={t('Welcome to Harvest Farm')}>
              <p className="text-slate-700">
                {t(
                  'Start with a deposit of USDC on Polygon (at least 0.5 USDC). Once it is confirmed, choose a tier and your investment earns its daily rate in 8-hour cycles, Monday to Friday.',
                )}
              </p>
              <Link
                to="/dashboard?tab=deposit"
                className="mt-3 inline-flex min-h-10 items-center rounded-lg bg-purple-700 px-4 py-2 text-sm font-semibold text-white hover:bg-purple-800"
              >
                {t('Make your first deposit')}
              </Link>
            </Card>
          )}
          <AccountSummaryCards summary={s} />
          <Suspense fallback={null}>
            <MyProof />
          </Suspense>
        </div>
      )}
    </QueryState>
  );
}
