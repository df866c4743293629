import type { AppContext } from '../context.ts';
import type { Job } from '../job.ts';
import { deliverOutbox } from './outbox.ts';

/** Background job: sends queued e-mails every MAIL_OUTBOX_INTERVAL_MS (several instances share the work). */
export const mailOutboxJob: Job = {
  name: 'mail-outbox',
  intervalMs: (config) => config.MAIL_OUTBOX_INTERVAL_MS,
  async run(ctx: AppContext): Promise<void> {
    // Pass after pass while whole batches go out, so a backlog drains without waiting an interval each.
    for (;;) {
      const r = await deliverOutbox(ctx);
      if (r.sent > 0 || r.failed > 0) ctx.log.info(r, 'mail outbox pass');
      if (r.failed > 0 || r.sent === 0) return;
    }
  },
};
