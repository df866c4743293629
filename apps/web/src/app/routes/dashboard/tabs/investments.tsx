import { POLL_INVESTMENTS_MS } from '@harvest/shared/constants';
import { Card } from '../../../../components/ui/card.tsx';
import { InvestmentCycles } from '../../../../features/investments/components/investment-cycles.tsx';
import { myWithdrawalsQuery } from '../../../../features/withdrawals/api/my-withdrawals.ts';
import { WithdrawalsSection } from '../../../../features/withdrawals/components/withdrawals-section.tsx';
import { QueryState, Skeleton } from '../../../../components/ui/query-state.tsx';
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from '../../../../lib/query-keys.ts';
import { t } from '../../../../lib/i18n.tsx';

export default function Tab() {
  // Refreshes every 2 s while the tab is open (spec section 7).
  const dashboard = useQuery(dashboardQuery(POLL_INVESTMENTS_MS));
  const history = useQuery(myWithdrawalsQuery(POLL_INVESTMENTS_MS));
  // Both sections draw once both reads are in, in place of the skeleton: a section arriving first would push the
  // other down (layout shift) as the second one fills. A failed read shows its error in its own section.
  const waiting =
    (dashboard.data === undefined && !dashboard.isError) || (history.data === undefined && !history.isError);
  if (waiting) return <TabSkeleton />;
  return (
    <div className="space-y-6">
      <QueryState
        query={dashboard}
        what={t('your investments')}
        frame={(state) => <Card title={t('Investment Cycles')}>{state}</Card>}
      >
        {(data) => (
          <InvestmentCycles
            investments={data.activeInvestments}
            serverTime={data.serverTime}
            receivedAt={dashboard.dataUpdatedAt}
            platformDay={data.platformDay}
            platformWeekday={data.platformWeekday}
            cycleStartedNow={data.cycleStartedNow}
          />
        )}
      </QueryState>
      <WithdrawalsSection />
    </div>
  );
}

/** The tab's two sections as grey blocks of an investment card's and the withdrawal summary's size. */
function TabSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true">
      <Card title={t('Investment Cycles')}>
        <div className="grid animate-pulse gap-4 md:grid-cols-2" aria-hidden="true">
          <div className="h-64 rounded-xl bg-slate-200" />
          <div className="hidden h-64 rounded-xl bg-slate-200 md:block" />
        </div>
      </Card>
      <Card title={t('Cycle Withdrawals')}>
        <Skeleton lines={4} label={t('Loading {what}', { what: t('your investments') })} />
      </Card>
    </div>
  );
}
