import { microToUsdc } from '@harvest/shared/money';
import type { AccountSummary, DashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { AppContext } from '../../context.ts';
import { CYCLE_MS } from '@harvest/shared/constants';
import { completableFrom, isWeekday, platformDay } from '../../lib/time.ts';
import { toInvestmentDto } from '../investments/investments.dto.ts';
import { dashboardData, type SummaryFigures } from './dashboard.queries.ts';

/** The account summary as packages/shared/src/schemas/dashboard.ts defines each figure. */
function accountSummary(f: SummaryFigures): AccountSummary {
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
  const tz = ctx.config.PLATFORM_TIMEZONE;
  const endTime = new Date(now.getTime() + CYCLE_MS);
  const { figures, investments } = await dashboardData(ctx.db, userId);
  return {
    accountSummary: accountSummary(figures),
    activeInvestments: investments.map(({ investment, earnings }) => toInvestmentDto(investment, earnings)),
    serverTime: now.toISOString(),
    platformDay: platformDay(now, tz),
    platformWeekday: isWeekday(now, tz),
    cycleStartedNow: { endTime: endTime.toISOString(), completableFrom: completableFrom(endTime, tz).toISOString() },
  };
}
