import type { AppContext } from '../../context.ts';
import type { Job } from '../../job.ts';
import { refreshOnchainBalances } from './solvency.service.ts';

/** How often the on-chain balances behind the solvency view are read again. */
export const SOLVENCY_REFRESH_MS = 5 * 60_000;

/** Background job: refreshes the cached USDC balances of the platform's addresses, at start and every few minutes. */
export const solvencyRefreshJob: Job = {
  name: 'solvency-refresh',
  intervalMs: () => SOLVENCY_REFRESH_MS,
  atStart: true,
  async run(ctx: AppContext) {
    if (!ctx.chain) return;
    const r = await refreshOnchainBalances(ctx);
    if (!('error' in r)) return;
    ctx.log.warn({ err: r.error }, 'solvency: on-chain balances not read');
    return 'failed';
  },
};
