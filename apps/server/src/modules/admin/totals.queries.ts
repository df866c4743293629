import type { Db } from '../../db/client.ts';
import { rollupSums, statusCounts, userCount } from '../../ledger/rollups.queries.ts';

export interface Totals {
  totalUsers: number;
  /** Deposits booked in the ledger: the ones that count (hf_deposit_counts; admin adjustments are not deposits). */
  totalDeposits: bigint;
  /** Admin balance adjustments, net of reductions. */
  totalAdjustments: bigint;
  totalInvestments: bigint;
  pendingDeposits: number;
  pendingWithdrawals: number;
}

/** The platform's totals: money from the daily rollups, counts from indexes. */
export async function platformTotals(db: Db): Promise<Totals> {
  const [money, users, deposits, withdrawals] = await Promise.all([
    rollupSums(db, ['deposit.amount', 'admin_adjustment.amount', 'investment.amount']),
    userCount(db),
    statusCounts(db, 'deposits', 'pending'),
    statusCounts(db, 'withdrawals', 'pending'),
  ]);
  return {
    totalUsers: users,
    totalDeposits: money['deposit.amount'] ?? 0n,
    totalAdjustments: money['admin_adjustment.amount'] ?? 0n,
    totalInvestments: money['investment.amount'] ?? 0n,
    pendingDeposits: deposits.get('pending') ?? 0,
    pendingWithdrawals: withdrawals.get('pending') ?? 0,
  };
}
