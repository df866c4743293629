import { cycleEarning } from '@harvest/shared/money';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { isWeekday } from '../../lib/time.ts';
import { queueMails } from '../../mail/outbox.ts';
import { claimDueReminders } from './cycle-reminders.queries.ts';

/** Cycles claimed per transaction. */
export const REMINDER_BATCH = 100;

/**
 * One sweep (the job's, also called by tests): an opted-in investor's running cycle that has become ready to
 * complete (ended, and a weekday in the platform time zone) gets one e-mail. The claim and the queued mail commit
 * together, so a crash or a second instance neither loses nor doubles it. Returns how many were queued.
 */
export async function remindReadyCycles(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  // A cycle that ended at the weekend is ready on Monday: it is reminded then.
  if (!isWeekday(now, ctx.config.PLATFORM_TIMEZONE)) return 0;
  let total = 0;
  for (;;) {
    const n = await inTransaction(ctx.db, async (tx) => {
      const due = await claimDueReminders(tx, now, REMINDER_BATCH);
      await queueMails(
        tx,
        ctx,
        due.map((r) => ({
          userId: r.userId,
          event: {
            kind: 'cycle_ready' as const,
            tier: r.tierName,
            amount: r.amount,
            earning: cycleEarning(r.amount, BigInt(r.dailyRateScaled)),
            endedAt: r.cycleEndTime,
            at: now,
          },
        })),
      );
      return due.length;
    });
    total += n;
    if (n < REMINDER_BATCH) return total;
  }
}
