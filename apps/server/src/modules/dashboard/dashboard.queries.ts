import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';

export interface SummaryFigures {
  balance: bigint;
  invested: bigint;
  rewards: bigint;
  earnings: bigint;
  pendingWithdrawal: bigint;
  lifetimeRewards: bigint;
  lifetimeEarnings: bigint;
  approvedNet: bigint;
  withdrawalWallet: string | null;
}

type Big = bigint | string | null;

/**
 * Every figure of the account summary in one query: the user's ledger accounts (cached balances), the
 * lifetime sums kept in `user_totals` (the same row the admin users list reads: db/functions.sql), and the
 * net of approved withdrawals.
 */
export async function summaryFigures(db: Db, userId: string): Promise<SummaryFigures> {
  const [row] = await rawRows<{
    balance: Big;
    invested: Big;
    rewards: Big;
    earnings: Big;
    pending_withdrawal: Big;
    lifetime_rewards: Big;
    lifetime_earnings: Big;
    approved_net: Big;
    withdrawal_wallet: string | null;
  }>(
    db,
    sql`SELECT
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'balance') AS balance,
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'invested') AS invested,
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'rewards') AS rewards,
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'earnings') AS earnings,
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'pending_withdrawal') AS pending_withdrawal,
          ut.referral_rewards AS lifetime_rewards,
          ut.earnings AS lifetime_earnings,
          (SELECT COALESCE(SUM(net_amount), 0)::bigint FROM withdrawals WHERE user_id = u.id AND status = 'approved') AS approved_net,
          u.withdrawal_wallet
        FROM users u LEFT JOIN user_totals ut ON ut.user_id = u.id WHERE u.id = ${userId}::uuid`,
  );
  const b = (v: Big | undefined) => BigInt(v ?? 0);
  return {
    balance: b(row?.balance),
    invested: b(row?.invested),
    rewards: b(row?.rewards),
    earnings: b(row?.earnings),
    pendingWithdrawal: b(row?.pending_withdrawal),
    lifetimeRewards: b(row?.lifetime_rewards),
    lifetimeEarnings: b(row?.lifetime_earnings),
    approvedNet: b(row?.approved_net),
    withdrawalWallet: row?.withdrawal_wallet ?? null,
  };
}
