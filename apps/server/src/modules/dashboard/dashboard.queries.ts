import { sql, type SQL } from 'drizzle-orm';
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

/**
 * The whole dashboard of the user `u` (the users row of the statement it is placed in) as one JSON
 * value: every figure of the account summary (the cached ledger balances, lifetime rewards and cycle
 * earnings, the net of approved withdrawals) and the investments with their cycle earnings. Amounts
 * travel as exact text. Read in the same statement as the session's user row (plugins/auth.ts).
 */
export const DASHBOARD_JSON: SQL = sql`json_build_object(
  'summary', json_build_object(
    'balance', (SELECT balance::text FROM ledger_accounts WHERE user_id = u.id AND kind = 'balance'),
    'invested', (SELECT balance::text FROM ledger_accounts WHERE user_id = u.id AND kind = 'invested'),
    'rewards', (SELECT balance::text FROM ledger_accounts WHERE user_id = u.id AND kind = 'rewards'),
    'earnings', (SELECT balance::text FROM ledger_accounts WHERE user_id = u.id AND kind = 'earnings'),
    'pending_withdrawal', (SELECT balance::text FROM ledger_accounts WHERE user_id = u.id AND kind = 'pending_withdrawal'),
    'lifetime_rewards', (SELECT COALESCE(SUM(amount), 0)::text FROM referral_rewards WHERE user_id = u.id),
    'lifetime_earnings', (SELECT COALESCE(SUM(gross_amount), 0)::text FROM cycle_earnings WHERE user_id = u.id),
    'approved_net', (SELECT COALESCE(SUM(net_amount), 0)::text FROM withdrawals WHERE user_id = u.id AND status = 'approved'),
    'withdrawal_wallet', u.withdrawal_wallet),
  'investments', (SELECT COALESCE(json_agg(json_build_object(
      'id', i.id, 'user_id', i.user_id, 'tier_id', i.tier_id, 'tier_name', i.tier_name, 'amount', i.amount::text,
      'daily_rate_scaled', i.daily_rate_scaled, 'total_earned', i.total_earned::text, 'cycles_completed', i.cycles_completed,
      'earning_started', i.earning_started, 'earning_completed', i.earning_completed, 'cycle_started_at', i.cycle_started_at,
      'cycle_end_time', i.cycle_end_time, 'last_cycle_day', i.last_cycle_day, 'withdrawal_approved_at', i.withdrawal_approved_at,
      'next_cycle_available_at', i.next_cycle_available_at, 'created_at', i.created_at,
      'earnings', (SELECT COALESCE(json_agg(json_build_object(
          'id', c.id, 'investment_id', c.investment_id, 'user_id', c.user_id, 'cycle_number', c.cycle_number,
          'gross_amount', c.gross_amount::text, 'withdrawal_requested', c.withdrawal_requested, 'created_at', c.created_at)
        ORDER BY c.cycle_number), '[]'::json) FROM cycle_earnings c WHERE c.investment_id = i.id))
    ORDER BY i.created_at, i.id), '[]'::json) FROM investments i WHERE i.user_id = u.id))`;

type Json = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v : String(v ?? ''));
const big = (v: unknown) => BigInt(v === null || v === undefined ? 0 : text(v));
const date = (v: unknown) => new Date(text(v));
const dateOrNull = (v: unknown) => (v === null || v === undefined ? null : date(v));

export interface DashboardData {
  figures: SummaryFigures;
  investments: { investment: InvestmentRow; earnings: CycleEarningRow[] }[];
}

/** DASHBOARD_JSON, parsed (the driver may hand JSON over as text). */
export function parseDashboard(raw: unknown): DashboardData {
  const d = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { summary: Json; investments: Json[] };
  const s = d.summary;
  return {
    figures: {
      balance: big(s.balance),
      invested: big(s.invested),
      rewards: big(s.rewards),
      earnings: big(s.earnings),
      pendingWithdrawal: big(s.pending_withdrawal),
      lifetimeRewards: big(s.lifetime_rewards),
      lifetimeEarnings: big(s.lifetime_earnings),
      approvedNet: big(s.approved_net),
      withdrawalWallet: (s.withdrawal_wallet as string | null) ?? null,
    },
    investments: d.investments.map((i) => ({
      investment: {
        id: text(i.id),
        userId: text(i.user_id),
        tierId: text(i.tier_id),
        tierName: text(i.tier_name),
        amount: big(i.amount),
        dailyRateScaled: Number(i.daily_rate_scaled),
        totalEarned: big(i.total_earned),
        cyclesCompleted: Number(i.cycles_completed),
        earningStarted: Boolean(i.earning_started),
        earningCompleted: Boolean(i.earning_completed),
        cycleStartedAt: dateOrNull(i.cycle_started_at),
        cycleEndTime: dateOrNull(i.cycle_end_time),
        lastCycleDay: (i.last_cycle_day as string | null) ?? null,
        withdrawalApprovedAt: dateOrNull(i.withdrawal_approved_at),
        nextCycleAvailableAt: dateOrNull(i.next_cycle_available_at),
        createdAt: date(i.created_at),
      },
      earnings: ((i.earnings as Json[] | null) ?? []).map((c) => ({
        id: text(c.id),
        investmentId: text(c.investment_id),
        userId: text(c.user_id),
        cycleNumber: Number(c.cycle_number),
        grossAmount: big(c.gross_amount),
        withdrawalRequested: Boolean(c.withdrawal_requested),
        createdAt: date(c.created_at),
      })),
    })),
  };
}
