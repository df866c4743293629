import type { AppContext } from '../../context.ts';
import type { Job } from '../../job.ts';
import { depositWatcher } from './deposit-watcher.ts';
import { recheckPendingDeposits } from './deposits.verify.ts';

/** Background job: confirms (or fails) pending real deposits as the chain moves on, every DEPOSIT_CHECK_INTERVAL_MS. */
export const depositCheckJob: Job = {
  name: 'deposit-recheck',
  intervalMs: (config) => config.DEPOSIT_CHECK_INTERVAL_MS,
  async run(ctx: AppContext): Promise<void> {
    if (!ctx.chain) return;
    const r = await recheckPendingDeposits(ctx);
    if (r.checked > 0) ctx.log.info(r, 'deposit recheck pass');
  },
};

/** Background job (DEPOSIT_XPUB mode): the chain watcher finds deposits to investors' own addresses. */
export const depositWatchJob: Job = {
  name: 'deposit-watcher',
  intervalMs: (config) => config.DEPOSIT_CHECK_INTERVAL_MS,
  atStart: true,
  async run(ctx: AppContext) {
    const w = depositWatcher(ctx);
    return w.enabled ? w.tick() : undefined;
  },
};
