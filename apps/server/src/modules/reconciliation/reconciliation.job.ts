import type { AppContext } from '../../context.ts';
import type { Job } from '../../job.ts';
import { completeRun, runningRun, startRun } from './reconciliation.service.ts';
import { lastRun } from './reconciliation.queries.ts';

/** How often the reconciliation against the chain runs by itself. */
export const RECONCILE_EVERY_MS = 24 * 60 * 60_000;

/** Background job: once a day (the first instance to look after a day has passed), money in against the chain. */
export const reconciliationJob: Job = {
  name: 'chain-reconcile',
  intervalMs: () => 10 * 60_000,
  async run(ctx: AppContext) {
    const chain = ctx.chain;
    if (!chain) return;
    const deps = { db: ctx.db, chain, config: ctx.config, now: () => ctx.clock.now() };
    const last = await lastRun(ctx.db);
    if (last && ctx.clock.now().getTime() - last.startedAt.getTime() < RECONCILE_EVERY_MS) return;
    if (await runningRun(deps)) return;
    const { run, result } = await completeRun(deps, await startRun(deps, 'daily', null));
    if (!result) {
      ctx.log.warn({ err: run.error }, 'chain reconciliation could not read the chain');
      return 'failed';
    }
    if (result.differences.length > 0)
      ctx.log.error({ differences: result.differences.length, run: run.id }, 'chain reconciliation found differences');
    return undefined;
  },
};
