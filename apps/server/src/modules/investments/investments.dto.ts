import { microToUsdc, scaledToRate } from '@harvest/shared/money';
import type { Investment } from '@harvest/shared/schemas/dashboard';
import type { DashboardEarning, DashboardInvestment } from '../dashboard/dashboard.queries.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The spec's Investment entity, from the row and its cycle earnings. */
export function toInvestmentDto(i: DashboardInvestment, earnings: DashboardEarning[]): Investment {
  return {
    _id: i.id,
    tier: i.tierName,
    amount: microToUsdc(i.amount),
    dailyRate: scaledToRate(i.dailyRateScaled),
    totalEarned: microToUsdc(i.totalEarned),
    earningStarted: i.earningStarted,
    earningCompleted: i.earningCompleted,
    cycleEndTime: iso(i.cycleEndTime),
    withdrawalApprovedAt: iso(i.withdrawalApprovedAt),
    nextCycleAvailableAt: iso(i.nextCycleAvailableAt),
    lastCycleDay: i.lastCycleDay,
    createdAt: i.createdAt.toISOString(),
    cycleEarnings: earnings.map((e) => ({
      _id: e.id,
      cycleNumber: e.cycleNumber,
      grossAmount: microToUsdc(e.grossAmount),
      withdrawalRequested: e.withdrawalRequested,
      createdAt: e.createdAt.toISOString(),
    })),
  };
}
