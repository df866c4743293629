import type { AccountSummary } from '@harvest/shared/schemas/dashboard';
import { StatCard } from '../../../components/ui/card.tsx';
import { usdc, usdcFour } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';

/** The investor dashboard's seven cards (spec section 2); balance and total investment with 4 decimals, the
 * exact figure in their title. */
export function AccountSummaryCards({ summary }: { summary: AccountSummary }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard label={t('USDC Balance')} value={usdcFour(summary.balance)} title={usdc(summary.balance, 'balance')} />
      <StatCard
        label={t('Total Investment')}
        value={usdcFour(summary.totalInvestment)}
        title={usdc(summary.totalInvestment, 'balance')}
        tone="sky"
      />
      <StatCard label={t('Total Earnings')} value={usdc(summary.totalEarnings)} tone="emerald" />
      <StatCard label={t('Available to Withdraw')} value={usdc(summary.availableToWithdraw)} tone="emerald" />
      <StatCard label={t('Pending Approval')} value={usdc(summary.pendingApproval)} tone="amber" />
      <StatCard label={t('Successfully Withdrawn')} value={usdc(summary.successfullyWithdrawn)} tone="sky" />
      <StatCard label={t('Referral Rewards')} value={usdc(summary.referralRewards)} tone="emerald" />
    </div>
  );
}
