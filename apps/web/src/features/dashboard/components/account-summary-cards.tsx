import { formatUsdc } from '@harvest/shared/money';
import type { AccountSummary } from '@harvest/shared/schemas/dashboard';
import { StatCard } from '../../../components/ui/card.tsx';

/** Exact USDC (2 to 6 decimals) for the figures the spec gives no precision for. */
const exact = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** The investor dashboard's seven cards (spec section 2); balance and total investment with 4 decimals. */
export function AccountSummaryCards({ summary }: { summary: AccountSummary }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard label="USDC Balance" value={`${formatUsdc(summary.balance, 4)} USDC`} />
      <StatCard label="Total Investment" value={`${formatUsdc(summary.totalInvestment, 4)} USDC`} tone="sky" />
      <StatCard label="Total Earnings" value={`${exact(summary.totalEarnings)} USDC`} tone="emerald" />
      <StatCard label="Available to Withdraw" value={`${exact(summary.availableToWithdraw)} USDC`} tone="emerald" />
      <StatCard label="Pending Approval" value={`${exact(summary.pendingApproval)} USDC`} tone="amber" />
      <StatCard label="Successfully Withdrawn" value={`${exact(summary.successfullyWithdrawn)} USDC`} tone="sky" />
      <StatCard label="Referral Rewards" value={`${exact(summary.referralRewards)} USDC`} tone="rose" />
    </div>
  );
}
