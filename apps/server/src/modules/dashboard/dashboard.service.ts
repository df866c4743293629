import { microToUsdc } from '@harvest/shared/money';
import type { AccountSummary, DashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { isWeekday, platformDay } from '../../lib/time.ts';
import { toInvestmentDto } from '../investments/investments.dto.ts';
import { investmentsWithEarnings } from '../investments/investments.queries.ts';
import { summaryFigures } from './dashboard.queries.ts';

/**
 * The account summary as packages/shared/src/schemas/dashboard.ts defines each figure.
 * Exported for reuse (e.g. the admin user list) with any user id.
 */
export async function accountSummary(db: Db, userId: string): Promise<AccountSummary> {
  const f = await summaryFigures(db, userId);
  return {
    balance: microToUsdc(f.balance),
    totalInvestment: microToUsdc(f.invested),
    referralRewards: microToUsdc(f.lifetimeRewards),
    withdrawalWallet: f.withdrawalWallet,
    totalEarnings: microToUsdc(f.lifetimeEarnings),
    availableToWithdraw: microToUsdc(f.earnings + f.rewards + f.balance),
    pendingApproval: microToUsdc(f.pendingWithdrawal),
    successfullyWithdrawn: microToUsdc(f.approvedNet),
  };
}

export async function dashboard(ctx: AppContext, userId: string): Promise<DashboardResponse> {
  const now = ctx.clock.now();
  const [summary, investments] = await Promise.all([
    accountSummary(ctx.db, userId),
    investmentsWithEarnings(ctx.db, userId),
  ]);
  return {
    accountSummary: summary,
    activeInvestments: investments.map(({ investment, earnings }) => toInvestmentDto(investment, earnings)),
    serverTime: now.toISOString(),
    platformDay: platformDay(now, ctx.config.PLATFORM_TIMEZONE),
    platformWeekday: isWeekday(now, ctx.config.PLATFORM_TIMEZONE),
  };
}
