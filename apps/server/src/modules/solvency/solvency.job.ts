import type { AppContext } from '../../context.ts';
import type { Job } from '../../job.ts';
import { refreshOnchainBalances } from './solvency.service.ts';

/** How often the on-chain balances behind the solvency view are read again once they have been read. */
export const SOLVENCY_REFRESH_MS = 5 * 60_000;

const lastRead = new WeakMap<AppContext, number>();

/**
 * Background job: reads the USDC of the platform's addresses at start, and again every SOLVENCY_REFRESH_MS.
 * It looks every DEPOSIT_CHECK_INTERVAL_MS, so a start while the node is unreachable is read soon after it answers.
 */
export const solvencyRefreshJob: Job = {
  name: 'solvency-refresh',
  intervalMs: (config) => Math.min(config.DEPOSIT_CHECK_INTERVAL_MS, SOLVENCY_REFRESH_MS),
  atStart: true,
  async run(ctx: AppContext) {
    const now = ctx.clock.now().getTime();
    if (!ctx.chain || now - (lastRead.get(ctx) ?? -Infinity) < SOLVENCY_REFRESH_MS) return;
    const r = await refreshOnchainBalances(ctx);
    if (!('error' in r)) {
      lastRead.set(ctx, now);
      return;
    }
    ctx.log.warn({ err: r.error }, 'solvency: on-chain balances not read');
    return 'failed';
  },
};
