import type { AccountSummary } from '@harvest/shared/schemas/dashboard';
import { StatCard } from '../../../components/ui/card.tsx';
import { usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';

/** The investor dashboard's seven cards (spec section 2); balance and total investment with 4 decimals. */
export function AccountSummaryCards({ summary }: { summary: AccountSummary }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard label={t('USDC Balance')} value={usdc(summary.balance, 'balance')} />
      <StatCard label={t('Total Investment')} value={usdc(summary.totalInvestment, 'balance')} tone="sky" />
      <StatCard label={t('Total Earnings')} value={usdc(summary.totalEarnings)} tone="emerald" />
      <StatCard label={t('Available to Withdraw')} value={usdc(summary.availableToWithdraw)} tone="emerald" />
      <StatCard label={t('Pending Approval')} value={usdc(summary.pendingApproval)} tone="amber" />
      <StatCard label={t('Successfully Withdrawn')} value={usdc(summary.successfullyWithdrawn)} tone="sky" />
      <StatCard label={t('Referral Rewards')} value={usdc(summary.referralRewards)} tone="emerald" />
    </div>
  );
}
