import { and, asc, eq, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { oncePerDb } from '../../db/raw.ts';
import { cycleEarnings, investments, ledgerAccounts, userTotals, users, withdrawals } from '../../db/schema.ts';
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
 * The dashboard is three prepared reads run side by side (the Investments tab polls it every 2 s): the user's
 * row with the lifetime sums the ledger keeps in `user_totals` and
 * the net of approved withdrawals; the user's ledger accounts (cached balances); the investments with their
 * cycle earnings.
 */
const forUser = sql.placeholder('userId');

const totalsStatement = oncePerDb((db) =>
  db
    .select({
      withdrawalWallet: users.withdrawalWallet,
      lifetimeRewards: userTotals.referralRewards,
      lifetimeEarnings: userTotals.earnings,
      approvedNet: sql<bigint>`coalesce((${db
        .select({ total: sum(withdrawals.netAmount) })
        .from(withdrawals)
        .where(and(eq(withdrawals.userId, users.id), eq(withdrawals.status, 'approved')))}), 0)::bigint`,
    })
    .from(users)
    .leftJoin(userTotals, eq(userTotals.userId, users.id))
    .where(eq(users.id, forUser))
    .prepare('hf_dashboard_totals'),
);

const accountsStatement = oncePerDb((db) =>
  db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.userId, forUser))
    .prepare('hf_dashboard_accounts'),
);

const investmentsStatement = oncePerDb((db) =>
  db
    .select({
      investment: {
        id: investments.id,
        tierName: investments.tierName,
        amount: investments.amount,
        dailyRateScaled: investments.dailyRateScaled,
        totalEarned: investments.totalEarned,
        earningStarted: investments.earningStarted,
        earningCompleted: investments.earningCompleted,
        cycleEndTime: investments.cycleEndTime,
        withdrawalApprovedAt: investments.withdrawalApprovedAt,
        nextCycleAvailableAt: investments.nextCycleAvailableAt,
        lastCycleDay: investments.lastCycleDay,
        createdAt: investments.createdAt,
      },
      earning: {
        id: cycleEarnings.id,
        cycleNumber: cycleEarnings.cycleNumber,
        grossAmount: cycleEarnings.grossAmount,
        withdrawalRequested: cycleEarnings.withdrawalRequested,
        createdAt: cycleEarnings.createdAt,
      },
    })
    .from(investments)
    .leftJoin(cycleEarnings, eq(cycleEarnings.investmentId, investments.id))
    .where(eq(investments.userId, forUser))
    .orderBy(asc(investments.createdAt), asc(investments.id), asc(cycleEarnings.cycleNumber))
    .prepare('hf_dashboard_investments'),
);

/** The dashboard's figures and investments of a user (zeros and none for an unknown id). */
export async function dashboardData(db: Db, userId: string): Promise<DashboardData> {
  const [[totals], accounts, rows] = await Promise.all([
    totalsStatement(db).execute({ userId }),
    accountsStatement(db).execute({ userId }),
    investmentsStatement(db).execute({ userId }),
  ]);
  const balance = (kind: string) => accounts.find((a) => a.kind === kind)?.balance ?? 0n;
  const investmentsOut: DashboardData['investments'] = [];
  for (const { investment, earning } of rows) {
    const last = investmentsOut.at(-1);
    const entry = last?.investment.id === investment.id ? last : { investment, earnings: [] };
    if (entry !== last) investmentsOut.push(entry);
    if (earning) entry.earnings.push(earning);
  }
  return {
    figures: {
      balance: balance('balance'),
      invested: balance('invested'),
      rewards: balance('rewards'),
      earnings: balance('earnings'),
      pendingWithdrawal: balance('pending_withdrawal'),
      lifetimeRewards: totals?.lifetimeRewards ?? 0n,
      lifetimeEarnings: totals?.lifetimeEarnings ?? 0n,
      approvedNet: totals?.approvedNet ?? 0n,
      withdrawalWallet: totals?.withdrawalWallet ?? null,
    },
    investments: investmentsOut,
  };
}
