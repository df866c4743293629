import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../../context.ts';
import type { Job } from '../../job.ts';
import { extendChain } from '../../ledger/hash-chain.ts';
import { AppError } from '../../lib/errors.ts';
import { latestSnapshots } from './por.queries.ts';
import { takeSnapshot } from './por.service.ts';

/** Extends the ledger's hash chain over newly committed transactions, outside every money transaction. */
export const ledgerChainJob: Job = {
  name: 'ledger-chain',
  intervalMs: () => 10_000,
  atStart: true,
  async run(ctx: AppContext) {
    await extendChain(ctx.db);
  },
};

/** Takes a proof-of-reserves snapshot when the last one is POR_INTERVAL_HOURS old (by the platform clock). */
export const porSnapshotJob: Job = {
  name: 'por-snapshot',
  intervalMs: () => 5 * 60_000,
  async run(ctx: AppContext) {
    const [last] = await latestSnapshots(ctx.db, 1);
    const due = last ? last.takenAt.getTime() + ctx.config.POR_INTERVAL_HOURS * 3_600_000 : 0;
    if (ctx.clock.now().getTime() < due) return;
    try {
      await takeSnapshot(ctx);
    } catch (err) {
      // A platform of fewer than 2 investors publishes nothing: that is not a failure.
      if (err instanceof AppError && err.message === MSG.porTooFewInvestors) return;
      throw err;
    }
  },
};
