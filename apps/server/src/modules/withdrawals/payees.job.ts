import type { AppContext } from '../../context.ts';
import type { Job } from '../../job.ts';
import { pendingPayees } from './batches.queries.ts';
import { checkPayees } from './payees.service.ts';

/** Pending withdrawals whose wallets one run reads at most (the oldest). */
export const PAYEE_CHECK_BATCH = 5_000;

/** Background job: the wallets of pending withdrawals read against the token's blacklist, so Process Withdrawal shows it. */
export const payeeCheckJob: Job = {
  name: 'payee-check',
  intervalMs: () => 5 * 60_000,
  atStart: true,
  async run(ctx: AppContext) {
    if (!ctx.chain || !ctx.config.PAYOUT_ADDRESS) return;
    const r = await checkPayees(ctx, await pendingPayees(ctx.db, PAYEE_CHECK_BATCH));
    if (!('error' in r)) return;
    ctx.log.warn({ err: r.error }, 'payee check: the token could not be asked');
    return 'failed';
  },
};
