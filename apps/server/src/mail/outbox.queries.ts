import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rawRows } from '../db/raw.ts';
import { mailOutbox, users } from '../db/schema.ts';
import { ledgerAccounts } from '../db/schema.ts';

export type NewOutboxMail = typeof mailOutbox.$inferInsert & { createdAt: Date };

export async function insertMails(db: Db, rows: NewOutboxMail[]): Promise<void> {
  if (rows.length > 0) await db.insert(mailOutbox).values(rows);
}

/** Who gets each user's mail, and the balance a receipt quotes (read in the event's transaction). */
export async function recipients(
  db: Db,
  userIds: string[],
): Promise<Map<string, { email: string; firstName: string; locale: string; balance: bigint }>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      locale: users.locale,
      balance: ledgerAccounts.balance,
    })
    .from(users)
    .leftJoin(ledgerAccounts, and(eq(ledgerAccounts.userId, users.id), eq(ledgerAccounts.kind, 'balance')))
    .where(inArray(users.id, userIds));
  return new Map(
    rows.map((r) => [r.id, { email: r.email, firstName: r.firstName, locale: r.locale, balance: r.balance ?? 0n }]),
  );
}

export interface ClaimedMail {
  id: number;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  attempts: number;
}

/**
 * Claims due unsent mails for one delivery pass: rows another instance is claiming are skipped
 * (FOR UPDATE SKIP LOCKED) and each claimed row is leased (`locked_until`), so no other instance or
 * pass sends it while this one does; a pass that dies leaves the lease to run out and the mail due.
 */
export async function claimDueMails(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]> {
  const rows = await rawRows<{
    id: number | string;
    to_address: string;
    subject: string;
    text_body: string;
    html_body: string;
    attempts: number;
  }>(
    db,
    sql`UPDATE mail_outbox SET locked_until = ${leaseUntil.toISOString()}::timestamptz
      WHERE id IN (
        SELECT id FROM mail_outbox
        WHERE sent_at IS NULL AND next_attempt_at <= ${now.toISOString()}::timestamptz
          AND (locked_until IS NULL OR locked_until <= ${now.toISOString()}::timestamptz)
        ORDER BY next_attempt_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, to_address, subject, text_body, html_body, attempts`,
  );
  return rows
    .map((r) => ({
      id: Number(r.id),
      toAddress: r.to_address,
      subject: r.subject,
      textBody: r.text_body,
      htmlBody: r.html_body,
      attempts: r.attempts,
    }))
    .sort((a, b) => a.id - b.id);
}

export async function markSent(db: Db, id: number, now: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ sentAt: now, lockedUntil: null, lastError: null })
    .where(and(eq(mailOutbox.id, id), isNull(mailOutbox.sentAt)));
}

/** A failed attempt: counted, with the error, due again at `nextAttemptAt`. */
export async function markFailed(db: Db, id: number, error: string, nextAttemptAt: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({
      attempts: sql`${mailOutbox.attempts} + 1`,
      lastError: error.slice(0, 500),
      nextAttemptAt,
      lockedUntil: null,
    })
    .where(and(eq(mailOutbox.id, id), isNull(mailOutbox.sentAt)));
}

/** Gives claimed mails back untried (the pass stopped at an SMTP failure): due again at once. */
export async function release(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await rawRows(
    db,
    sql`UPDATE mail_outbox SET locked_until = NULL WHERE sent_at IS NULL AND id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) RETURNING id`,
  );
}

/** Removes mails sent before `before` (unsent ones stay, however old: they are still owed). */
export async function purgeSentMails(db: Db, before: Date): Promise<void> {
  await db.delete(mailOutbox).where(lt(mailOutbox.sentAt, before));
}
