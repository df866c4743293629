import { WITHDRAWAL_FEE_PERCENT } from '@harvest/shared/constants';
import { microToUsdc, parseUsdc, withdrawalFee } from '@harvest/shared/money';
import type { DashboardResponse } from '@harvest/shared/schemas/dashboard';

export interface Breakdown {
  earningsCount: number;
  earnings: number;
  /** Referral rewards and balance: no fee. */
  other: number;
  gross: number;
  fee: number;
  net: number;
}

/**
 * What Withdraw All will create, computed like the server does: the 15% fee rounded down
 * per cycle earning, in integer micro-USDC; rewards and balance carry no fee.
 */
export function withdrawBreakdown(d: Pick<DashboardResponse, 'accountSummary' | 'activeInvestments'>): Breakdown {
  const micro = (v: number) => parseUsdc(v) ?? 0n;
  let earnings = 0n;
  let fee = 0n;
  let earningsCount = 0;
  for (const inv of d.activeInvestments) {
    for (const ce of inv.cycleEarnings) {
      const g = micro(ce.grossAmount);
      if (ce.withdrawalRequested || g <= 0n) continue;
      earnings += g;
      fee += withdrawalFee(g, WITHDRAWAL_FEE_PERCENT).fee;
      earningsCount++;
    }
  }
  const gross = micro(d.accountSummary.availableToWithdraw);
  const other = gross > earnings ? gross - earnings : 0n;
  const total = earnings + other;
  return {
    earningsCount,
    earnings: microToUsdc(earnings),
    other: microToUsdc(other),
    gross: microToUsdc(total),
    fee: microToUsdc(fee),
    net: microToUsdc(total - fee),
  };
}
