import { POLL_INVESTMENTS_MS } from '@harvest/shared/constants';
import { Button } from '../../../../components/ui/button.tsx';
import { Card } from '../../../../components/ui/card.tsx';
import { InvestmentCycles } from '../../../../features/investments/components/investment-cycles.tsx';
import { WithdrawalsSection } from '../../../../features/withdrawals/components/withdrawals-section.tsx';
import { errorText } from '../../../../lib/api-client.ts';
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from '../../../../lib/query-keys.ts';
import { t } from '../../../../lib/i18n.tsx';

export default function Tab() {
  // Refreshes every 2 s while the tab is open (spec section 7).
  const dashboard = useQuery(dashboardQuery(POLL_INVESTMENTS_MS));
  return (
    <div className="space-y-6">
      {dashboard.isPending ? (
        <Card title={t('Investment Cycles')}>
          <p role="status" className="text-slate-500">
            {t('Loading your investments...')}
          </p>
        </Card>
      ) : dashboard.isError ? (
        <Card
          title={t('Investment Cycles')}
          actions={
            <Button variant="secondary" onClick={() => void dashboard.refetch()}>
              {t('Retry')}
            </Button>
          }
        >
          <p className="text-slate-600">{errorText(dashboard.error, t('Could not load your investments.'))}</p>
        </Card>
      ) : (
        <InvestmentCycles
          investments={dashboard.data.activeInvestments}
          serverTime={dashboard.data.serverTime}
          receivedAt={dashboard.dataUpdatedAt}
          platformDay={dashboard.data.platformDay}
          platformWeekday={dashboard.data.platformWeekday}
        />
      )}
      <WithdrawalsSection />
    </div>
  );
}
