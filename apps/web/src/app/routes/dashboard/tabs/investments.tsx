import { POLL_INVESTMENTS_MS } from '@harvest/shared/constants';
import { Card } from '../../../../components/ui/card.tsx';
import { InvestmentCycles } from '../../../../features/investments/components/investment-cycles.tsx';
import { WithdrawalsSection } from '../../../../features/withdrawals/components/withdrawals-section.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from '../../../../lib/query-keys.ts';
import { t } from '../../../../lib/i18n.tsx';

export default function Tab() {
  // Refreshes every 2 s while the tab is open (spec section 7).
  const dashboard = useQuery(dashboardQuery(POLL_INVESTMENTS_MS));
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
