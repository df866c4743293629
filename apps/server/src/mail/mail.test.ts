import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createTestApp, fund, makeUser, type TestApp, type TestUser } from '../../test/helpers.ts';
import { tokenNow } from '../../test/support/investments.ts';
import { hashOf, seedCycleEarning, seedFundedInvestment, WALLET } from '../../test/support/money.ts';
import { rawRows } from '../db/raw.ts';
import { stepOf, totpAt } from '../lib/totp.ts';
import { deliverOutbox } from './outbox.ts';

/**
 * Every money and security event sends its owner one e-mail (an e-mail change one to each address)
 * through a real SMTP server, with the event's figures, formatted as on screen and dated in the
 * platform time zone (Asia/Singapore here: 02:30 UTC is 10:30 there).
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ PLATFORM_TIMEZONE: 'Asia/Singapore' });
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

const NOW = '2026-11-18T02:30:00Z';
const LOCAL = 'Nov 18, 2026, 10:30 (Asia/Singapore)';

/** Delivers everything queued, then the one mail `email` got (and that it got only one). */
async function onlyMailTo(email: string) {
  await deliverOutbox(t.ctx);
  const mails = t.smtp.mailsTo(email);
  expect(mails, `mails to ${email}`).toHaveLength(1);
  // A second pass sends nothing again.
  expect(await deliverOutbox(t.ctx)).toEqual({ sent: 0, failed: 0 });
  expect(t.smtp.mailsTo(email)).toHaveLength(1);
  const mail = mails[0];
  if (!mail) throw new Error('no mail');
  expect(mail.html).toContain('<table');
  return mail;
}

async function investor(): Promise<TestUser> {
  t.clock.set(new Date(NOW));
  return makeUser(t, { firstName: 'Ada' });
}

/** An address with letters (the EIP-55 test vector): its capitals carry the checksum. */
const MIXED_CASE = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('e-mail receipts', () => {
  it('deposit confirmed: amount, transaction hash and the new balance', async () => {
    const u = await investor();
    await fund(t, u.user.id, 1_250_000n);
    const token = await tokenNow(t, u);
    const txHash = hashOf(5001);
    const dep = await call(t, 'POST', '/api/user/process-deposit', {
      token,
      body: { txHash, amount: '1234.5', fromAddress: WALLET },
    });
    const ok = await call(t, 'POST', '/api/admin/process-deposit', {
      token: await tokenNow(t, admin),
      body: { depositId: dep.data.deposit._id },
    });
    expect(ok.statusCode).toBe(200);
    const mail = await onlyMailTo(u.user.email);
    expect(mail.subject).toBe('Deposit confirmed: 1,234.50 USDC');
    expect(mail.text).toContain('Hello Ada,');
    expect(mail.text).toMatch(/Amount:\s+1,234\.50 USDC/);
    expect(mail.text).toMatch(new RegExp(`Transaction hash:\\s+${txHash}`));
    expect(mail.text).toMatch(/New balance:\s+1,235\.75 USDC/);
    expect(mail.text).toContain(LOCAL);
    expect(mail.html).toContain('1,235.75 USDC');
  });

  it('deposit rejected by an administrator: the reason and what to do', async () => {
    const u = await investor();
    const token = await tokenNow(t, u);
    const dep = await call(t, 'POST', '/api/user/process-deposit', {
      token,
      body: { txHash: hashOf(5002), amount: 3, fromAddress: WALLET },
    });
    const reason = 'Wrong sender: <we> received nothing from this address';
    const res = await call(t, 'POST', '/api/admin/reject-deposit', {
      token: await tokenNow(t, admin),
      body: { depositId: dep.data.deposit._id, reason },
    });
    expect(res.statusCode).toBe(200);
    const mail = await onlyMailTo(u.user.email);
    expect(mail.subject).toBe('Deposit failed: 3.00 USDC');
    expect(mail.text).toContain(`Reason:           ${reason}`);
    expect(mail.text).toContain('What to do: open the Deposit tab');
    // Text the administrator typed is escaped in the HTML.
    expect(mail.html).toContain('Wrong sender: &lt;we&gt; received');
    expect(mail.html).not.toContain('<we>');
  });

  /** A Withdraw All of an earning (1.50 gross, 1.275 net) and the balance (10.00): the request and its two withdrawals. */
  async function withdrawAll() {
    const u = await investor();
    const inv = await seedFundedInvestment(t, u.user.id);
    await seedCycleEarning(t, u.user.id, inv, 1_500_000n);
    await fund(t, u.user.id, 10_000_000n);
    const token = await tokenNow(t, u);
    const req = await call(t, 'POST', '/api/withdrawal/request-all', {
      token,
      // Typed in lower case: the e-mail shows it with its EIP-55 capitals, as every screen does.
      body: { walletAddress: MIXED_CASE.toLowerCase(), withdrawalPassword: u.withdrawalPassword },
    });
    expect(req.statusCode).toBe(200);
    const mine = await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token });
    const ws = mine.data.withdrawals as { _id: string; source: string }[];
    return { u, earning: ws.find((w) => w.source === 'earning'), balance: ws.find((w) => w.source === 'balance') };
  }

  const approve = async (withdrawalId: string | undefined, txHash: string, notes?: string) =>
    (
      await call(t, 'POST', '/api/withdrawal/admin/approve', {
        token: await tokenNow(t, admin),
        body: { withdrawalId, txHash, ...(notes ? { notes } : {}) },
      })
    ).statusCode;

  it('withdrawal requested, rejected (with the notes) and paid (with the explorer link)', async () => {
    const { u, earning, balance } = await withdrawAll();
    const requested = await onlyMailTo(u.user.email);
    expect(requested.subject).toBe('Withdrawal requested: 11.275 USDC');
    expect(requested.text).toContain('for 2 items');
    expect(requested.text).toMatch(/Gross:\s+11\.50 USDC/);
    expect(requested.text).toMatch(/Fee:\s+0\.225 USDC/);
    expect(requested.text).toMatch(/Net to be paid:\s+11\.275 USDC/);
    expect(requested.text).toMatch(new RegExp(`Wallet:\\s+${MIXED_CASE}`));
    expect(requested.text).toContain(LOCAL);

    const reject = await call(t, 'POST', '/api/withdrawal/admin/reject', {
      token: await tokenNow(t, admin),
      body: { withdrawalId: balance?._id, notes: 'Wallet under review' },
    });
    expect(reject.statusCode).toBe(200);
    await deliverOutbox(t.ctx);
    const rejected = t.smtp.mailsTo(u.user.email)[1];
    expect(rejected?.subject).toBe('Withdrawal rejected: 10.00 USDC');
    expect(rejected?.text).toMatch(/Notes:\s+Wallet under review/);
    expect(rejected?.text).toMatch(/Returned to:\s+your balance/);

    const payout = hashOf(5003);
    expect(await approve(earning?._id, payout, 'Paid')).toBe(200);
    await deliverOutbox(t.ctx);
    const all = t.smtp.mailsTo(u.user.email);
    expect(all).toHaveLength(3);
    const paid = all[2];
    expect(paid?.subject).toBe('Withdrawal paid: 1.275 USDC');
    expect(paid?.text).toMatch(/Fee:\s+0\.225 USDC/);
    expect(paid?.text).toMatch(/Notes:\s+Paid/);
    expect(paid?.text).toMatch(new RegExp(`Wallet:\\s+${MIXED_CASE}`));
    expect(paid?.text).toMatch(new RegExp(`Transaction hash:\\s+${payout}`));
    expect(paid?.text).toContain(`https://polygonscan.com/tx/${payout}`);
    expect(paid?.html).toContain(`<a href="https://polygonscan.com/tx/${payout}">`);
  });

  it('one request paid by two transfers: one paid e-mail, when the second lands, listing both', async () => {
    const { u, earning, balance } = await withdrawAll();
    const first = hashOf(5004);
    const second = hashOf(5005);
    expect(await approve(balance?._id, first)).toBe(200);
    await deliverOutbox(t.ctx);
    // The request is half paid: only the request's own mail so far.
    expect(t.smtp.mailsTo(u.user.email).map((m) => m.subject)).toEqual(['Withdrawal requested: 11.275 USDC']);

    expect(await approve(earning?._id, second)).toBe(200);
    await deliverOutbox(t.ctx);
    const subjects = t.smtp.mailsTo(u.user.email).map((m) => m.subject);
    expect(subjects).toEqual(['Withdrawal requested: 11.275 USDC', 'Withdrawal paid: 11.275 USDC']);
    const paid = t.smtp.mailsTo(u.user.email)[1];
    expect(paid?.text).toMatch(/Amount:\s+11\.50 USDC/);
    expect(paid?.text).toMatch(/Net paid:\s+11\.275 USDC/);
    expect(paid?.text).toMatch(new RegExp(`Transfer 1:\\s+${first}`));
    expect(paid?.text).toMatch(new RegExp(`Transfer 2:\\s+${second}`));
    expect(paid?.text).toContain(`View transfer 1 on the Polygon explorer: https://polygonscan.com/tx/${first}`);
    expect(paid?.text).toContain(`View transfer 2 on the Polygon explorer: https://polygonscan.com/tx/${second}`);
    expect(paid?.html).toContain(`<a href="https://polygonscan.com/tx/${second}">`);
  });

  it('two-factor on and off, and a password change, each tell the owner once', async () => {
    const u = await investor();
    let token = await tokenNow(t, u);
    const setup = await call(t, 'POST', '/api/user/2fa/setup', { token, body: { password: u.password } });
    const secret: string = setup.data.secret;
    const on = await call(t, 'POST', '/api/user/2fa/enable', {
      token,
      body: { password: u.password, code: totpAt(secret, stepOf(t.clock.now())) },
    });
    expect(on.statusCode).toBe(200);
    const enabled = await onlyMailTo(u.user.email);
    expect(enabled.subject).toBe('Two-factor authentication turned on');
    expect(enabled.text).toContain(LOCAL);

    token = on.data.token;
    const off = await call(t, 'POST', '/api/user/2fa/disable', {
      token,
      body: { password: u.password, code: totpAt(secret, stepOf(t.clock.now()) + 1) },
    });
    expect(off.statusCode).toBe(200);
    await deliverOutbox(t.ctx);
    expect(t.smtp.mailsTo(u.user.email).map((m) => m.subject)).toEqual([
      'Two-factor authentication turned on',
      'Two-factor authentication turned off',
    ]);

    const changed = await call(t, 'PUT', '/api/user/profile', {
      token: off.data.token,
      body: {
        firstName: 'Ada',
        lastName: 'L',
        currentPassword: u.password,
        newPassword: 'brand-new-pass',
        confirmPassword: 'brand-new-pass',
      },
    });
    expect(changed.statusCode).toBe(200);
    await deliverOutbox(t.ctx);
    const subjects = t.smtp.mailsTo(u.user.email).map((m) => m.subject);
    expect(subjects).toHaveLength(3);
    expect(subjects[2]).toBe('Your password was changed');
  });

  it('an e-mail change tells the old and the new address, once each', async () => {
    const a = await makeUser(t, { isAdmin: true });
    const newEmail = `moved.${a.user.id.slice(0, 8)}@example.com`;
    const res = await call(t, 'PUT', '/api/user/admin/update-email', {
      token: await tokenNow(t, a),
      body: { newEmail, password: a.password },
    });
    expect(res.statusCode).toBe(200);
    const old = await onlyMailTo(a.user.email);
    const fresh = await onlyMailTo(newEmail);
    for (const m of [old, fresh]) {
      expect(m.subject).toBe('Your e-mail address was changed');
      expect(m.text).toContain(`from ${a.user.email} to ${newEmail}`);
    }
  });

  it('a refused event sends nothing (the mail is written by the transaction it reports)', async () => {
    const u = await investor();
    const before = t.smtp.mails.length;
    const res = await call(t, 'POST', '/api/withdrawal/request-all', {
      token: await tokenNow(t, u),
      body: { walletAddress: WALLET, withdrawalPassword: u.withdrawalPassword },
    });
    expect(res.statusCode).toBe(400);
    await deliverOutbox(t.ctx);
    expect(t.smtp.mails.length).toBe(before);
    const [row] = await rawRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM mail_outbox WHERE user_id = ${u.user.id}::uuid`,
    );
    expect(row?.n).toBe(0);
  });
});
