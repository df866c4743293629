import type { AppContext } from '../../context.ts';
import type { Job } from '../../job.ts';
import { remindReadyCycles } from './cycle-reminders.service.ts';

/** Background job: queues the ready-to-complete e-mails every CYCLE_REMINDER_INTERVAL_MS (instances share it safely). */
export const cycleReminderJob: Job = {
  name: 'cycle-reminders',
  intervalMs: (config) => config.CYCLE_REMINDER_INTERVAL_MS,
  async run(ctx: AppContext): Promise<void> {
    const queued = await remindReadyCycles(ctx);
    if (queued > 0) ctx.log.info({ queued }, 'cycle reminders queued');
  },
};
