import { POLL_DEPOSITS_MS } from '@harvest/shared/constants';
import { Card, StatCard } from '../../../../components/ui/card.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { useAuth } from '../../../../lib/auth.tsx';
import { DepositAddress } from '../../../../features/deposits/components/deposit-address.tsx';
import { DepositForm } from '../../../../features/deposits/components/deposit-form.tsx';
import { FailedDeposits } from '../../../../features/deposits/components/failed-deposits.tsx';
import { WalletDeposit } from '../../../../features/deposits/components/wallet-deposit.tsx';
import { RecentDeposits } from '../../../../features/deposits/components/recent-deposits.tsx';
import { depositSettingsQuery } from '../../../../features/deposits/api/deposit-settings.ts';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { FullHistory } from '../../../../features/history/components/full-history.tsx';
import { dashboardQuery } from '../../../../lib/query-keys.ts';
import { usdc } from '../../../../lib/format.ts';
import { t } from '../../../../lib/i18n.tsx';

/** The full history is a view of this tab in the URL (`&view=history`): Back returns to the tab. */
const HISTORY_VIEW = 'history';

/**
 * Deposit tab (spec section 2): address, instructions, warning, balance, form, corrections, recent deposits;
 * with per-investor addresses also "Send from my wallet" when the browser has a wallet.
 */
export default function Tab() {
  const [params, setParams] = useSearchParams();
  if (params.get('view') === HISTORY_VIEW) return <FullHistory onBack={() => setParams({ tab: 'deposit' })} />;
  return <DepositTab />;
}

function DepositTab() {
  const { user } = useAuth();
  const dashboard = useQuery(dashboardQuery(POLL_DEPOSITS_MS));
  const balance = dashboard.data?.accountSummary.balance;
  const settings = useQuery(depositSettingsQuery()).data;
  const own = settings?.ownAddress ?? false;
  return (
    <div className="space-y-5">
      <div className="grid gap-5 lg:grid-cols-[2fr_1fr]">
        <Card title={t('Deposit USDC')}>
          <DepositAddress address={user?.depositAddress ?? ''} own={own} />
          {own && user?.depositAddress && (
            <div className="mt-4">
              <WalletDeposit settings={settings} address={user.depositAddress} />
            </div>
          )}
        </Card>
        {/* Its own height beside the taller deposit card, not a stretched empty box. */}
        <StatCard
          label={t('Current Balance')}
          className="lg:self-start"
          value={
            // The figure as text, which the card sizes to fit; the read's other states until then.
            balance !== undefined ? (
              usdc(balance, 'balance')
            ) : (
              <QueryState query={dashboard} what={t('your balance')} lines={1}>
                {() => null}
              </QueryState>
            )
          }
        />
      </div>
      <div className="grid gap-5 lg:grid-cols-2">
        {own ? (
          <Card title={t('Not showing up? Submit the transaction')}>
            <details>
              <summary className="cursor-pointer text-sm text-slate-600">
                {t('A transfer to your address that has not appeared after a few minutes can be submitted here.')}
              </summary>
              <div className="mt-3">
                <DepositForm />
              </div>
            </details>
          </Card>
        ) : (
          <Card title={t('Submit Deposit')}>
            <DepositForm />
          </Card>
        )}
        <Card title={t('Recent Deposits')}>
          <RecentDeposits />
          <Link
            to={{ search: `?tab=deposit&view=${HISTORY_VIEW}` }}
            className="mt-3 inline-flex min-h-10 items-center text-sm font-semibold text-purple-800 underline hover:text-purple-900"
          >
            {t('Full history')}
          </Link>
        </Card>
      </div>
      <FailedDeposits />
    </div>
  );
}
