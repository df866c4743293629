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

/**
 * Every figure of the account summary in one query: the user's ledger accounts (cached
 * balances), lifetime rewards and cycle earnings, and the net of approved withdrawals.
 */
export async function summaryFigures(db: Db, userId: string): Promise<SummaryFigures> {
  const [row] = await rawRows<{
    balance: bigint | string | null;
    invested: bigint | string | null;
    rewards: bigint | string | null;
    earnings: bigint | string | null;
    pending_withdrawal: bigint | string | null;
    lifetime_rewards: bigint | string | null;
    lifetime_earnings: bigint | string | null;
    approved_net: bigint | string | null;
    withdrawal_wallet: string | null;
  }>(
    db,
    sql`SELECT
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'balance') AS balance,
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'invested') AS invested,
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'rewards') AS rewards,
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'earnings') AS earnings,
          (SELECT balance FROM ledger_accounts WHERE user_id = u.id AND kind = 'pending_withdrawal') AS pending_withdrawal,
          (SELECT COALESCE(SUM(amount), 0)::bigint FROM referral_rewards WHERE user_id = u.id) AS lifetime_rewards,
          (SELECT COALESCE(SUM(gross_amount), 0)::bigint FROM cycle_earnings WHERE user_id = u.id) AS lifetime_earnings,
          (SELECT COALESCE(SUM(net_amount), 0)::bigint FROM withdrawals WHERE user_id = u.id AND status = 'approved') AS approved_net,
          u.withdrawal_wallet
        FROM users u WHERE u.id = ${userId}::uuid`,
  );
  const b = (v: bigint | string | null | undefined) => BigInt(v ?? 0);
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
