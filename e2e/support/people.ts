import { expect, type Page } from '@playwright/test';
import { ADMIN, type RunningApp } from './server.ts';

/** Someone who signed up through the API (send-code, the e-mailed code, register). */
export interface Person {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  withdrawalPassword: string;
  token: string;
}

/** A toast with this text (exact, or matching the pattern). */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator('.Toastify').getByText(text, typeof text === 'string' ? { exact: true } : undefined);

/** The value under a stat card's label. */
export const stat = (page: Page, label: string) =>
  page.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');

/** Long real data the layouts must hold: a 60-character name (with its space, so it wraps only there). */
export const LONG_FIRST_NAME = 'Maximiliana Alexandrina';
export const LONG_LAST_NAME = 'Featherstonehaugh-Worthington-Smythe';
export const LONG_NAME = `${LONG_FIRST_NAME} ${LONG_LAST_NAME}`;

/** A real surname with no place to break a line (61 characters): boxes must wrap it anywhere or truncate it. */
export const UNBROKEN_LAST_NAME = 'Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft';

let seq = 0;

/** The invitation code of the person holding `token` (generated on first use). */
export async function invitationCodeOf(app: RunningApp, token: string): Promise<string> {
  const res = await app.api<{ code: string }>('POST', '/user/generate-invitation', { token });
  if (res.status !== 200) throw new Error(`generate-invitation: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data.code;
}

/** Registers an investor invited by the holder of `inviterToken` (the admin by default). */
export async function signUpInvestor(
  app: RunningApp,
  opts: { firstName: string; lastName: string; inviterToken?: string },
): Promise<Person> {
  const code = await invitationCodeOf(app, opts.inviterToken ?? (await app.adminToken()));
  // A long real name ("Maximiliana Alexandrina") makes no e-mail or password with spaces in it.
  const slug = opts.firstName.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const email = `${slug}.${Date.now()}.${++seq}@example.com`;
  const sent = await app.api('POST', '/send-code', { body: { email } });
  if (sent.status !== 200) throw new Error(`send-code: ${sent.status} ${JSON.stringify(sent.data)}`);
  const password = `${slug}-login-1`;
  const withdrawalPassword = `${slug}-withdraw-1`;
  const res = await app.api<{ token: string; user: { _id: string } }>('POST', '/register', {
    body: {
      invitationCode: code,
      firstName: opts.firstName,
      lastName: opts.lastName,
      email,
      phone: '+1 5551234567',
      password,
      confirmPassword: password,
      withdrawalPassword,
      verificationCode: app.smtp.codeFor(email),
    },
  });
  if (res.status !== 200) throw new Error(`register: ${res.status} ${JSON.stringify(res.data)}`);
  return {
    id: res.data.user._id,
    firstName: opts.firstName,
    lastName: opts.lastName,
    email,
    password,
    withdrawalPassword,
    token: res.data.token,
  };
}

/**
 * Signs in through the login screen and waits for the dashboard. A session that ended on a dashboard tab (a test
 * that moved the clock past the token's life while a screen polled) returns to that tab, as users do.
 */
export async function signIn(page: Page, app: RunningApp, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${app.baseURL}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard(\?tab=[a-z-]+)?$/);
}

/** Opens a dashboard tab by its name. */
export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
}

/** A fresh 0x + 64 hex transaction hash. */
export function randomTxHash(): `0x${string}` {
  let h = '';
  for (let i = 0; i < 64; i++) h += Math.floor(Math.random() * 16).toString(16);
  return `0x${h}`;
}

/** A fresh session token (tokens expire: after moving the test clock far ahead, sign in again). */
export async function tokenFor(app: RunningApp, who: { email: string; password: string }): Promise<string> {
  const res = await app.api<{ token: string }>('POST', '/login', {
    body: { email: who.email, password: who.password },
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data.token;
}

/** A demo deposit of `amount` USDC from `from`, approved by the administrator: `who`'s balance grows by it. */
export async function creditedDeposit(app: RunningApp, who: Person, amount: number, from: string): Promise<void> {
  const d = await app.api<{ deposit: { _id: string } }>('POST', '/user/process-deposit', {
    token: await tokenFor(app, who),
    body: { txHash: randomTxHash(), amount, fromAddress: from },
  });
  const ok = await app.api('POST', '/admin/process-deposit', {
    token: await tokenFor(app, ADMIN),
    body: { depositId: d.data.deposit._id },
  });
  expect(ok.status).toBe(200);
}
