import { POLL_DEPOSITS_MS } from '@harvest/shared/constants';
import { formatUsdc } from '@harvest/shared/money';
import { Card, StatCard } from '../../../../components/ui/card.tsx';
import { useAuth } from '../../../../lib/auth.tsx';
import { DepositAddress } from '../../../../features/deposits/components/deposit-address.tsx';
import { DepositForm } from '../../../../features/deposits/components/deposit-form.tsx';
import { FailedDeposits } from '../../../../features/deposits/components/failed-deposits.tsx';
import { RecentDeposits } from '../../../../features/deposits/components/recent-deposits.tsx';
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from '../../../../lib/query-keys.ts';

/** Deposit tab (spec section 2): address, instructions, warning, balance, form, corrections, recent deposits. */
export default function Tab() {
  const { user } = useAuth();
  const dashboard = useQuery(dashboardQuery(POLL_DEPOSITS_MS));
  const balance = dashboard.data?.accountSummary.balance;
  return (
    <div className="space-y-5">
      <div className="grid gap-5 lg:grid-cols-[2fr_1fr]">
        <Card title="Deposit USDC">
          <DepositAddress address={user?.depositAddress ?? ''} />
        </Card>
        <StatCard label="Current Balance" value={balance === undefined ? '—' : `${formatUsdc(balance, 4)} USDC`} />
      </div>
      <div className="grid gap-5 lg:grid-cols-2">
        <Card title="Submit Deposit">
          <DepositForm />
        </Card>
        <Card title="Recent Deposits">
          <RecentDeposits />
        </Card>
      </div>
      <FailedDeposits />
    </div>
  );
}
