import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { openPostgres } from '../db/client.ts';
import { rawRows } from '../db/raw.ts';
import { inTransaction } from '../db/tx.ts';
import { userBalances } from '../ledger/ledger.ts';
import { call, createTestApp, isPostgres, makeUser, TEST_SECRET, type TestApp } from '../../test/helpers.ts';
import { startSmtp } from '../../test/smtp.ts';
import { hashOf, WALLET } from '../../test/support/money.ts';
import { housekeepingJob } from '../modules/housekeeping/housekeeping.job.ts';
import { deliverOutbox, MAIL_RETRY_BASE_MS, queueMail, SENT_MAIL_RETENTION_MS } from './outbox.ts';

/**
 * Delivery of the outbox: a dead SMTP server delays mail and never loses it, and each mail is
 * delivered once, also with parallel passes and two instances on one PostgreSQL database.
 */
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

const outboxRows = (t: TestApp) =>
  rawRows<{ id: number; attempts: number; sent_at: Date | null; last_error: string | null; next_attempt_at: Date }>(
    t.ctx.db,
    sql`SELECT id, attempts, sent_at, last_error, next_attempt_at FROM mail_outbox ORDER BY id`,
  );
const later = (t: TestApp, ms: number) => t.clock.set(new Date(t.clock.now().getTime() + ms));

describe('an SMTP outage, then recovery', () => {
  it('money moves during the outage; every mail arrives once after it, none lost or doubled', async () => {
    // The SMTP server the app is configured with is down: nothing listens on its port.
    const probe = await startSmtp();
    const port = probe.port;
    await probe.close();
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_MAX_MS: '600000' });
    closers.push(() => t.close());
    const admin = await makeUser(t, { isAdmin: true });
    const users = [await makeUser(t), await makeUser(t), await makeUser(t)];

    for (const [i, u] of users.entries()) {
      const dep = await call(t, 'POST', '/api/user/process-deposit', {
        token: u.token,
        body: { txHash: hashOf(8000 + i), amount: 10 + i, fromAddress: WALLET },
      });
      const ok = await call(t, 'POST', '/api/admin/process-deposit', {
        token: admin.token,
        body: { depositId: dep.data.deposit._id },
      });
      // Sending never blocks or fails the money: approved and credited while SMTP is down.
      expect(ok.statusCode).toBe(200);
      expect((await userBalances(t.ctx.db, u.user.id)).balance).toBe(BigInt(10 + i) * 1_000_000n);
    }

    // Passes during the outage: each tries one mail, fails, schedules it with backoff, gives the rest back.
    for (let pass = 0; pass < 4; pass++) {
      const r = await deliverOutbox(t.ctx);
      expect(r.sent).toBe(0);
      later(t, 1_000);
    }
    let rows = await outboxRows(t);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.sent_at === null)).toBe(true);
    expect(rows.every((r) => r.attempts >= 1 && r.last_error)).toBe(true);
    // The backoff: not due again before 30 s after the first failure.
    expect(await deliverOutbox(t.ctx)).toEqual({ sent: 0, failed: 0 });

    // The server comes back on the same address; as the retries fall due, each mail goes out once.
    const back = await startSmtp({ port });
    closers.push(() => back.close());
    for (let pass = 0; pass < 10; pass++) {
      later(t, MAIL_RETRY_BASE_MS * 4);
      await deliverOutbox(t.ctx);
    }
    rows = await outboxRows(t);
    expect(rows.every((r) => r.sent_at !== null)).toBe(true);
    expect(back.mails).toHaveLength(3);
    for (const [i, u] of users.entries()) {
      const mails = back.mailsTo(u.user.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toBe(`Deposit confirmed: ${10 + i}.00 USDC`);
    }
    expect(new Set(back.mails.map((m) => /Message-ID: (.*)/i.exec(m.raw)?.[1])).size).toBe(3);

    // Housekeeping purges sent mails after 30 days; an unsent one stays, however old.
    await inTransaction(t.ctx.db, (tx) =>
      queueMail(tx, t.ctx, admin.user.id, { kind: 'password_changed', at: t.clock.now() }),
    );
    const sentTimes = rows.map((r) => new Date(r.sent_at ?? 0).getTime());
    t.clock.set(new Date(Math.min(...sentTimes) + SENT_MAIL_RETENTION_MS - 60_000));
    await housekeepingJob.run(t.ctx);
    expect(await outboxRows(t)).toHaveLength(4);
    t.clock.set(new Date(Math.max(...sentTimes) + SENT_MAIL_RETENTION_MS + 60_000));
    await housekeepingJob.run(t.ctx);
    rows = await outboxRows(t);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.sent_at).toBeNull();
  });

  it('the backoff doubles from 30 s and stops growing at MAIL_RETRY_MAX_MS', async () => {
    const probe = await startSmtp();
    await probe.close();
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${probe.port}`, MAIL_RETRY_MAX_MS: '100000' });
    closers.push(() => t.close());
    const u = await makeUser(t);
    await inTransaction(t.ctx.db, (tx) =>
      queueMail(tx, t.ctx, u.user.id, { kind: 'password_changed', at: t.clock.now() }),
    );
    const waits: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = t.clock.now().getTime();
      expect((await deliverOutbox(t.ctx)).failed).toBe(1);
      const [row] = await outboxRows(t);
      waits.push(Math.round((new Date(row?.next_attempt_at ?? 0).getTime() - before) / 1000));
      t.clock.set(new Date(row?.next_attempt_at ?? 0));
    }
    // Seconds (the clock runs a little between the pass and the reading: rounded).
    expect(waits).toEqual([30, 60, 100, 100, 100]);
  });
});

describe.runIf(isPostgres)('exactly once with parallel passes and two instances (PostgreSQL)', () => {
  it('60 mails, passes racing in two instances: each mail sent once', async () => {
    const t = await createTestApp();
    closers.push(() => t.close());
    const url = t.database.url;
    if (!url) throw new Error('no database url');
    const second = openPostgres(url, 10);
    const other = await buildApp({ config: t.ctx.config, database: second, secret: TEST_SECRET, clock: t.clock });
    closers.push(async () => {
      await other.app.close();
      await second.close();
    });

    const u = await makeUser(t);
    await inTransaction(t.ctx.db, async (tx) => {
      for (let i = 0; i < 60; i++)
        await queueMail(tx, t.ctx, u.user.id, { kind: 'password_changed', at: t.clock.now() });
    });

    const ctxs = [t.ctx, other.ctx];
    let total = 0;
    for (let round = 0; round < 10 && total < 60; round++) {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => deliverOutbox(ctxs[i % 2] ?? t.ctx, { batch: 4 })),
      );
      total += results.reduce((s, r) => s + r.sent, 0);
    }
    expect(total).toBe(60);
    const mails = t.smtp.mailsTo(u.user.email);
    expect(mails).toHaveLength(60);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(60);
    const rows = await outboxRows(t);
    expect(rows.filter((r) => r.sent_at !== null)).toHaveLength(60);
  });
});
