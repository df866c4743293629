import type { AppContext } from '../../context.ts';
import { chainVerifier } from './chain.ts';
import { recheckPendingDeposits } from './deposits.service.ts';

const lastRun = new WeakMap<AppContext, number>();

/**
 * Background job: confirms (or fails) pending real deposits as the chain moves on. It ticks
 * often and runs a pass every DEPOSIT_CHECK_INTERVAL_MS (the interval is a setting, read here).
 */
export const depositCheckJob = {
  name: 'deposit-recheck',
  intervalMs: 500,
  async run(ctx: AppContext): Promise<void> {
    if (!chainVerifier(ctx.config)) return;
    const now = Date.now();
    if (now - (lastRun.get(ctx) ?? 0) < ctx.config.DEPOSIT_CHECK_INTERVAL_MS) return;
    lastRun.set(ctx, now);
    const r = await recheckPendingDeposits(ctx);
    if (r.checked > 0) ctx.log.info(r, 'deposit recheck pass');
  },
};
