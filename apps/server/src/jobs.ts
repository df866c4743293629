import type { AppContext } from './context.ts';
import type { Job } from './job.ts';
import { depositCheckJob, depositWatchJob } from './modules/deposits/deposits.job.ts';
import { solvencyRefreshJob } from './modules/solvency/solvency.job.ts';
import { housekeepingJob } from './modules/housekeeping/housekeeping.job.ts';
import { mailOutboxJob } from './mail/outbox.job.ts';
import { reconciliationJob } from './modules/reconciliation/reconciliation.job.ts';
import { payeeCheckJob } from './modules/withdrawals/payees.job.ts';
import { cycleReminderJob } from './modules/investments/cycle-reminders.job.ts';
import { ledgerChainJob, porSnapshotJob } from './modules/proof-of-reserves/por.job.ts';

export interface Jobs {
  stop(): Promise<void>;
}

/** Background jobs registered by modules (e.g. re-checking pending chain deposits). */
export const JOBS: Job[] = [
  depositCheckJob,
  depositWatchJob,
  solvencyRefreshJob,
  reconciliationJob,
  payeeCheckJob,
  housekeepingJob,
  mailOutboxJob,
  cycleReminderJob,
  ledgerChainJob,
  porSnapshotJob,
];

export function startBackgroundJobs(ctx: AppContext): Jobs {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;
  for (const job of JOBS) {
    let busy = false;
    const tick = () => {
      if (busy || stopped) return;
      busy = true;
      const p = ctx.metrics
        .timeJob(job.name, () => job.run(ctx))
        .catch((err: unknown) => ctx.log.error({ err }, `job ${job.name} failed`))
        .finally(() => {
          busy = false;
          running.delete(p);
        });
      running.add(p);
    };
    const t = setInterval(tick, job.intervalMs(ctx.config));
    t.unref();
    timers.push(t);
    if (job.atStart) tick();
  }
  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.all(running);
    },
  };
}
