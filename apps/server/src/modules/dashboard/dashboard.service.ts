import { microToUsdc } from '@harvest/shared/money';
import type { AccountSummary, DashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { AppContext } from '../../context.ts';
import { CYCLE_MS } from '@harvest/shared/constants';
import { completableFrom, isWeekday, platformDay } from '../../lib/time.ts';
import { toInvestmentDto } from '../investments/investments.dto.ts';
import { dashboardOf, type SummaryFigures } from './dashboard.queries.ts';

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

/** The dashboard of the signed-in user from `screen`, the data the route's session read fetched with it. */
export function dashboard(ctx: AppContext, screen: unknown): DashboardResponse {
  const now = ctx.clock.now();
  const tz = ctx.config.PLATFORM_TIMEZONE;
  const endTime = new Date(now.getTime() + CYCLE_MS);
  const { figures, investments } = dashboardOf(screen);
  return {
    accountSummary: accountSummary(figures),
    activeInvestments: investments.map(({ investment, earnings }) => toInvestmentDto(investment, earnings)),
    serverTime: now.toISOString(),
    platformDay: platformDay(now, tz),
    platformWeekday: isWeekday(now, tz),
    cycleStartedNow: { endTime: endTime.toISOString(), completableFrom: completableFrom(endTime, tz).toISOString() },
  };
}
