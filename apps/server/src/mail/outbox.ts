import type { AppContext } from '../context.ts';
import type { Tx } from '../db/client.ts';
import * as q from './outbox.queries.ts';
import { renderMail, type MailEvent } from './templates.ts';

/** A claimed mail is the claimer's for this long (longer than the SMTP timeouts of a whole batch). */
export const MAIL_LEASE_MS = 10 * 60_000;
/** Sent mails are kept this long (support can see what an investor was told), then purged by housekeeping. */
export const SENT_MAIL_RETENTION_MS = 30 * 24 * 3600_000;
/** Mails claimed per pass. */
export const MAIL_BATCH = 20;
/** First retry after a failed attempt; each further one waits twice as long, up to MAIL_RETRY_MAX_MS. */
export const MAIL_RETRY_BASE_MS = 30_000;

type MailContext = Pick<AppContext, 'config' | 'clock'>;

/**
 * Queues the e-mail(s) an event sends, in the transaction that records the event: the mail exists
 * exactly when the event committed, and writing it can neither block nor fail the money (no SMTP
 * here; the mail-outbox job delivers). An e-mail change is told to the old and the new address.
 */
export async function queueMail(tx: Tx, ctx: MailContext, userId: string, event: MailEvent): Promise<void> {
  await queueMails(tx, ctx, [{ userId, event }]);
}

/**
 * queueMail for many events in one transaction (the chain watcher's batch of deposit receipts): the
 * recipients read in one query and the mails written in one insert, not two round trips per event.
 */
export async function queueMails(tx: Tx, ctx: MailContext, items: { userId: string; event: MailEvent }[]) {
  if (items.length === 0) return;
  const recipients = await q.recipients(tx, [...new Set(items.map((i) => i.userId))]);
  const settings = {
    timeZone: ctx.config.PLATFORM_TIMEZONE,
    explorerUrl: ctx.config.EXPLORER_URL,
    supportEmail: ctx.config.SUPPORT_EMAIL,
  };
  const now = ctx.clock.now();
  await q.insertMails(
    tx,
    items.flatMap(({ userId, event }) => {
      const to = recipients.get(userId);
      if (!to) return [];
      const rendered = renderMail(event, to, settings);
      const addresses = event.kind === 'email_changed' ? [event.oldEmail, event.newEmail] : [to.email];
      return addresses.map((toAddress) => ({
        kind: event.kind,
        userId,
        toAddress,
        subject: rendered.subject,
        textBody: rendered.text,
        htmlBody: rendered.html,
        nextAttemptAt: now,
        createdAt: now,
      }));
    }),
  );
}

export function retryDelayMs(failedAttempts: number, maxMs: number): number {
  return Math.min(maxMs, MAIL_RETRY_BASE_MS * 2 ** Math.min(20, Math.max(0, failedAttempts - 1)));
}

/**
 * One delivery pass (the job's, also called by tests): claims due mails and sends each through the
 * mailer, marking it sent after the SMTP server accepted it. A failed send is retried later with
 * backoff (never dropped: a dead SMTP server delays mail, it does not lose it), and the pass stops
 * there, giving the rest of its claim back untried. The Message-ID is the outbox row's, so the one
 * resend a crash between acceptance and marking can cause is recognisable as the same message.
 */
export async function deliverOutbox(
  ctx: AppContext,
  opts: { batch?: number } = {},
): Promise<{ sent: number; failed: number }> {
  const now = ctx.clock.now();
  const claimed = await q.claimDueMails(ctx.db, now, new Date(now.getTime() + MAIL_LEASE_MS), opts.batch ?? MAIL_BATCH);
  const out = { sent: 0, failed: 0 };
  for (const [i, mail] of claimed.entries()) {
    try {
      await ctx.mailer.send({
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.textBody,
        html: mail.htmlBody,
        messageId: `<outbox-${mail.id}@${messageIdDomain(ctx.config.MAIL_FROM)}>`,
      });
    } catch (err) {
      const failedAt = ctx.clock.now();
      const next = new Date(failedAt.getTime() + retryDelayMs(mail.attempts + 1, ctx.config.MAIL_RETRY_MAX_MS));
      await q.markFailed(ctx.db, mail.id, err instanceof Error ? err.message : String(err), next);
      await q.release(
        ctx.db,
        claimed.slice(i + 1).map((m) => m.id),
      );
      ctx.log.warn({ mailId: mail.id, attempts: mail.attempts + 1 }, 'mail delivery failed: retried later');
      out.failed++;
      return out;
    }
    await q.markSent(ctx.db, mail.id, ctx.clock.now());
    out.sent++;
  }
  return out;
}

function messageIdDomain(from: string): string {
  return /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? 'harvest.farm';
}
