import type { Db } from '../../db/client.ts';
import { counters } from './rollups.queries.ts';

export interface Totals {
  totalUsers: number;
  /** Confirmed demo and on-chain deposits (hf_deposit_counts in db/functions.sql; admin adjustments are not deposits). */
  totalDeposits: bigint;
  /** Admin balance adjustments, net of reductions. */
  totalAdjustments: bigint;
  totalInvestments: bigint;
  pendingDeposits: number;
  pendingWithdrawals: number;
}

/** The platform's totals from the rollup counters (a few dozen rows, whatever the number of users). */
export async function platformTotals(db: Db): Promise<Totals> {
  const c = await counters(db, [
    'users',
    'deposits.total_amount',
    'adjustments.total_amount',
    'investments.total_amount',
    'deposits.pending',
    'withdrawals.pending',
  ]);
  const n = (k: string) => c[k] ?? 0n;
  return {
    totalUsers: Number(n('users')),
    totalDeposits: n('deposits.total_amount'),
    totalAdjustments: n('adjustments.total_amount'),
    totalInvestments: n('investments.total_amount'),
    pendingDeposits: Number(n('deposits.pending')),
    pendingWithdrawals: Number(n('withdrawals.pending')),
  };
}
