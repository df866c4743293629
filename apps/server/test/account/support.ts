import { expect } from 'vitest';
import { deliverOutbox } from '../../src/mail/outbox.ts';
import { call, type TestApp, type TestUser } from '../helpers.ts';
import type { ReadMail } from '../smtp.ts';

export const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
export const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Two EIP-55 addresses (mixed case, checksums right). */
export const OWN_WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';
export const THIEF_WALLET = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

/** Every mail the outbox holds for `email`, sent through the real SMTP server of the test and read back. */
export async function mailsTo(t: TestApp, email: string): Promise<ReadMail[]> {
  await deliverOutbox(t.ctx);
  return t.smtp.mailsTo(email);
}

/** The newest mail to `email` whose subject starts with `subject`. */
export async function lastMail(t: TestApp, email: string, subject: string): Promise<ReadMail> {
  const found = (await mailsTo(t, email)).filter((m) => m.subject.startsWith(subject));
  const m = found.at(-1);
  expect(m, `a mail "${subject}" to ${email}`).toBeDefined();
  return m as ReadMail;
}

/** The secret of the link to `page` in a mail's text (as the web page reads it from the fragment). */
export function linkToken(m: ReadMail, page: 'confirm-address' | 'confirm-lock-off' | 'not-me'): string {
  const found = new RegExp(`/${page}#token=([A-Za-z0-9_-]+)`).exec(m.text);
  expect(found, `a /${page} link in "${m.subject}"`).not.toBeNull();
  return found?.[1] ?? '';
}

/** Signs in through POST /api/login from a browser (its user agent, the id it keeps, its address). */
export async function signIn(
  t: TestApp,
  u: { user: { email: string }; password: string },
  o: { ua?: string; deviceId?: string; ip?: string; totpCode?: string } = {},
) {
  return call(t, 'POST', '/api/login', {
    body: {
      email: u.user.email,
      password: u.password,
      ...(o.deviceId ? { deviceId: o.deviceId } : {}),
      ...(o.totpCode ? { totpCode: o.totpCode } : {}),
    },
    headers: { 'user-agent': o.ua ?? CHROME_LINUX, ...(o.ip ? { 'x-forwarded-for': o.ip } : {}) },
  });
}

let keys = 0;
/** Withdraw All with the user's withdrawal password (a fresh idempotency key each time). */
export const withdrawAll = (t: TestApp, u: TestUser, walletAddress: string, extra: Record<string, string> = {}) =>
  call(t, 'POST', '/api/withdrawal/request-all', {
    token: u.token,
    body: { walletAddress, withdrawalPassword: u.withdrawalPassword, ...extra },
    headers: { 'idempotency-key': `account-test-${++keys}-${Date.now()}` },
  });

export const hours = (t: TestApp, h: number) => t.clock.set(new Date(t.clock.now().getTime() + h * 3600_000));
