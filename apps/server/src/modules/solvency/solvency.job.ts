import type { AppContext } from '../../context.ts';
import type { Job } from '../../job.ts';
import { refreshOnchainBalances } from './solvency.service.ts';

/** How often the on-chain balances behind the solvency view are read again. */
export const SOLVENCY_REFRESH_MS = 5 * 60_000;

/** Background job: refreshes the cached USDC balances of the platform's addresses. */
export const solvencyRefreshJob: Job = {
  name: 'solvency-refresh',
  intervalMs: () => SOLVENCY_REFRESH_MS,
  async run(ctx: AppContext): Promise<void> {
    if (!ctx.chain) return;
    const r = await refreshOnchainBalances(ctx);
    if ('error' in r) ctx.log.warn({ err: r.error }, 'solvency: on-chain balances not read');
  },
};
