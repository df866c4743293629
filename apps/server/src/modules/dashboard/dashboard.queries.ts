import { sql } from 'drizzle-orm';
import { jsonAmount, jsonText, jsonTextOrNull, jsonTime, jsonTimeOrNull, type JsonRow } from '../../db/row-types.ts';
import { sessionRead } from '../sessions/sessions.queries.ts';
import type { CycleEarningRow, InvestmentRow } from '../investments/investments.queries.ts';

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

export type DashboardInvestment = Pick<
  InvestmentRow,
  | 'id'
  | 'tierName'
  | 'amount'
  | 'dailyRateScaled'
  | 'totalEarned'
  | 'earningStarted'
  | 'earningCompleted'
  | 'cycleEndTime'
  | 'withdrawalApprovedAt'
  | 'nextCycleAvailableAt'
  | 'lastCycleDay'
  | 'createdAt'
>;
export type DashboardEarning = Pick<
  CycleEarningRow,
  'id' | 'cycleNumber' | 'grossAmount' | 'withdrawalRequested' | 'createdAt'
>;

export interface DashboardData {
  figures: SummaryFigures;
  investments: { investment: DashboardInvestment; earnings: DashboardEarning[] }[];
}

/**
 * The whole dashboard as one JSON value, read in the statement that reads the session (sessionRead, plugins/auth.ts
 * #requireUserReading), prepared: a poll of the Investments tab (every 2 s) is one round trip. The user's ledger
 * accounts (cached balances), the lifetime sums the ledger keeps in `user_totals`, the net of approved
 * withdrawals, and the investments with their cycle earnings, all from one snapshot. Three builder reads side by
 * side served 0.72 times the investors (bench/README.md). Inside JSON, amounts travel as exact text and times as
 * ISO text; `users` in the SQL is the row the statement reads.
 */
const dashboardJson = sql<unknown>`json_build_object(
  'balance', (SELECT balance::text FROM ledger_accounts WHERE user_id = users.id AND kind = 'balance'),
  'invested', (SELECT balance::text FROM ledger_accounts WHERE user_id = users.id AND kind = 'invested'),
  'rewards', (SELECT balance::text FROM ledger_accounts WHERE user_id = users.id AND kind = 'rewards'),
  'earnings', (SELECT balance::text FROM ledger_accounts WHERE user_id = users.id AND kind = 'earnings'),
  'pending_withdrawal', (SELECT balance::text FROM ledger_accounts WHERE user_id = users.id AND kind = 'pending_withdrawal'),
  'lifetime_rewards', (SELECT referral_rewards::text FROM user_totals WHERE user_id = users.id),
  'lifetime_earnings', (SELECT earnings::text FROM user_totals WHERE user_id = users.id),
  'approved_net', (SELECT COALESCE(SUM(net_amount), 0)::text FROM withdrawals WHERE user_id = users.id AND status = 'approved'),
  'withdrawal_wallet', users.withdrawal_wallet,
  'investments', (SELECT COALESCE(json_agg(json_build_object(
      'id', i.id, 'tier_name', i.tier_name, 'amount', i.amount::text, 'daily_rate_scaled', i.daily_rate_scaled,
      'total_earned', i.total_earned::text, 'earning_started', i.earning_started, 'earning_completed', i.earning_completed,
      'cycle_end_time', i.cycle_end_time, 'withdrawal_approved_at', i.withdrawal_approved_at,
      'next_cycle_available_at', i.next_cycle_available_at, 'last_cycle_day', i.last_cycle_day, 'created_at', i.created_at,
      'earnings', (SELECT COALESCE(json_agg(json_build_object(
          'id', c.id, 'cycle_number', c.cycle_number, 'gross_amount', c.gross_amount::text,
          'withdrawal_requested', c.withdrawal_requested, 'created_at', c.created_at) ORDER BY c.cycle_number), '[]'::json)
        FROM cycle_earnings c WHERE c.investment_id = i.id))
    ORDER BY i.created_at, i.id), '[]'::json) FROM investments i WHERE i.user_id = users.id))`;

/** The session's user and row, and the dashboard, in one statement. */
export const sessionAndDashboard = sessionRead('hf_session_dashboard', dashboardJson);

/** The dashboard's figures and investments from the JSON sessionAndDashboard read (zeros and none without it). */
export function dashboardOf(screen: unknown): DashboardData {
  const d = (screen ?? {}) as JsonRow;
  return {
    figures: {
      balance: jsonAmount(d.balance),
      invested: jsonAmount(d.invested),
      rewards: jsonAmount(d.rewards),
      earnings: jsonAmount(d.earnings),
      pendingWithdrawal: jsonAmount(d.pending_withdrawal),
      lifetimeRewards: jsonAmount(d.lifetime_rewards),
      lifetimeEarnings: jsonAmount(d.lifetime_earnings),
      approvedNet: jsonAmount(d.approved_net),
      withdrawalWallet: jsonTextOrNull(d.withdrawal_wallet),
    },
    investments: ((d.investments as JsonRow[] | undefined) ?? []).map((i) => ({
      investment: {
        id: jsonText(i.id),
        tierName: jsonText(i.tier_name),
        amount: jsonAmount(i.amount),
        dailyRateScaled: Number(i.daily_rate_scaled),
        totalEarned: jsonAmount(i.total_earned),
        earningStarted: Boolean(i.earning_started),
        earningCompleted: Boolean(i.earning_completed),
        cycleEndTime: jsonTimeOrNull(i.cycle_end_time),
        withdrawalApprovedAt: jsonTimeOrNull(i.withdrawal_approved_at),
        nextCycleAvailableAt: jsonTimeOrNull(i.next_cycle_available_at),
        lastCycleDay: jsonTextOrNull(i.last_cycle_day),
        createdAt: jsonTime(i.created_at),
      },
      earnings: ((i.earnings as JsonRow[] | null) ?? []).map((c) => ({
        id: jsonText(c.id),
        cycleNumber: Number(c.cycle_number),
        grossAmount: jsonAmount(c.gross_amount),
        withdrawalRequested: Boolean(c.withdrawal_requested),
        createdAt: jsonTime(c.created_at),
      })),
    })),
  };
}
