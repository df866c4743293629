import type { AppContext } from '../../context.ts';
import type { Job } from '../../job.ts';
import { purgeExpiredIdempotencyKeys } from '../../plugins/idempotency.queries.ts';
import { purgeExpiredCounters } from '../../lib/counter-store.queries.ts';
import { purgeStaleVerifications } from '../auth/auth.queries.ts';
import { purgeExpiredEmailCodes } from './housekeeping.queries.ts';
import { purgeSentMails } from '../../mail/outbox.queries.ts';
import { SENT_MAIL_RETENTION_MS } from '../../mail/outbox.ts';
import { purgeExpiredLinks } from '../account-links/account-links.queries.ts';
import { purgeEndedSessions } from '../sessions/sessions.queries.ts';
import { purgeOldSecurityEvents } from '../security-events/security-events.queries.ts';
import { purgeExpiredChallenges } from '../passkeys/passkeys.queries.ts';

const DAY_MS = 24 * 3600_000;

/**
 * Removes expired Idempotency-Keys (24 h), signup codes and their counters, closed throttle windows, mails sent 30+
 * days ago, e-mailed links a day past their expiry, sessions 30 days past theirs (the back office shows recent
 * ones) and security events older than a year. Idempotent, so several instances may run it.
 */
export const housekeepingJob: Job = {
  name: 'housekeeping',
  intervalMs: () => 15 * 60_000,
  async run(ctx: AppContext): Promise<void> {
    const now = ctx.clock.now();
    await purgeExpiredIdempotencyKeys(ctx.db, now);
    await purgeExpiredEmailCodes(ctx.db, new Date(now.getTime() - 24 * 3600_000));
    await purgeStaleVerifications(ctx.db, new Date(now.getTime() - 24 * 3600_000));
    await purgeExpiredCounters(ctx.db, now);
    await purgeSentMails(ctx.db, new Date(now.getTime() - SENT_MAIL_RETENTION_MS));
    await purgeExpiredLinks(ctx.db, new Date(now.getTime() - DAY_MS));
    await purgeEndedSessions(ctx.db, new Date(now.getTime() - 30 * DAY_MS));
    await purgeOldSecurityEvents(ctx.db, new Date(now.getTime() - 365 * DAY_MS));
    await purgeExpiredChallenges(ctx.db, now);
  },
};
