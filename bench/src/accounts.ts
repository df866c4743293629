/**
 * What the bench prepares through the API: signed-in investors, the administrator's session, and investors
 * holding 1,000 unrequested earnings for Withdraw All (earned by investing and cycling on the server's test clock).
 */
import { randomUUID } from 'node:crypto';
import type { AuthResponse } from '@harvest/shared/schemas/auth';
import type { DashboardResponse } from '@harvest/shared/schemas/dashboard';
import type { InvestResponse, TiersResponse } from '@harvest/shared/schemas/investments';
import { call, eachLimited, json } from './http.ts';

/** The passwords every seeded investor has (apps/server/scripts/seed-large.ts). */
export const SEED_PASSWORD = 'seed-password';
const SEED_WITHDRAWAL_PASSWORD = 'seed-withdrawal';
export const seedEmail = (k: number) => `seed${k}@seed.harvest`;
/** Sign-ins at once: each is an argon2id hash, about a core for tens of milliseconds. */
const LOGINS_AT_ONCE = 4;

export async function login(base: string, email: string, password = SEED_PASSWORD): Promise<string> {
  return (await json<AuthResponse>(base, 'POST', '/api/login', { body: { email, password } })).token;
}

/** Signs in `count` more seeded investors drawn at random from the `seeded` (their order is the sessions' order). */
export async function signIn(base: string, tokens: string[], count: number, seeded: number): Promise<void> {
  const picks = Array.from({ length: count }, () => seedEmail(1 + Math.floor(Math.random() * seeded)));
  await eachLimited(picks, LOGINS_AT_ONCE, async (email) => {
    tokens.push(await login(base, email));
  });
}

export async function setClock(base: string, at: Date): Promise<void> {
  await json(base, 'POST', '/api/__test__/clock', { body: { now: at.toISOString() } });
}

/** The `k`-th weekday (Monday to Friday, UTC) after today, at `hour`:`minute` UTC. */
export function weekday(k: number, hour: number, minute = 0): Date {
  const d = new Date();
  d.setUTCHours(hour, minute, 0, 0);
  for (let n = 0; n < k;) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) n++;
  }
  return d;
}

/**
 * Gives `count` of the candidate investors `investments x days` (1,000) new unrequested earnings: each buys the
 * cheapest tier `investments` times, then on `days` weekdays of the test clock starts every one of them at 09:00
 * and completes it at 17:01. Answers the investors' tokens (signed in at the first day, valid for 30 days).
 */
export async function earnThousand(
  base: string,
  candidates: string[],
  count: number,
  o = { investments: 50, days: 20 },
): Promise<string[]> {
  await setClock(base, weekday(1, 9));
  const tiers = await json<TiersResponse>(base, 'GET', '/api/user/investment-tiers', {
    token: await login(base, candidates[0] ?? ''),
  });
  const amount = Math.min(...tiers.tiers.map((t) => t.amount));
  const chosen: string[] = [];
  for (const email of candidates) {
    if (chosen.length === count) break;
    const token = await login(base, email);
    const d = await json<DashboardResponse>(base, 'GET', '/api/user/dashboard', { token });
    if (d.accountSummary.balance >= amount * o.investments) chosen.push(token);
  }
  if (chosen.length < count) throw new Error(`only ${chosen.length} of the candidates can buy ${o.investments} tiers`);
  const post = (token: string, path: string, body: unknown) =>
    json<InvestResponse>(base, 'POST', path, { token, body, headers: { 'idempotency-key': randomUUID() } });
  const bought: { token: string; id: string }[] = [];
  const buys = chosen.flatMap((token) => Array.from({ length: o.investments }, () => token));
  await eachLimited(buys, 4, async (token) => {
    bought.push({ token, id: (await post(token, '/api/user/invest', { amount })).investment._id });
  });
  for (let day = 1; day <= o.days; day++) {
    await setClock(base, weekday(day, 9));
    await eachLimited(bought, 4, (b) => post(b.token, '/api/user/start-earning', { investmentId: b.id }).then());
    await setClock(base, weekday(day, 17, 1));
    await eachLimited(bought, 4, (b) => post(b.token, '/api/user/complete-cycle', { investmentId: b.id }).then());
  }
  return chosen;
}

/** The days (UTC, the bench server's platform zone) earnThousand's cycles fall on: a statement's period. */
export function earnedPeriod(o = { days: 20 }): { from: string; to: string } {
  return { from: weekday(1, 9).toISOString().slice(0, 10), to: weekday(o.days, 17, 1).toISOString().slice(0, 10) };
}

/** One Withdraw All, timed from sending to the whole answer. */
export async function withdrawAll(base: string, token: string): Promise<number> {
  const t0 = performance.now();
  const a = await call(base, 'POST', '/api/withdrawal/request-all', {
    token,
    body: { walletAddress: `0x${'1'.repeat(40)}`, withdrawalPassword: SEED_WITHDRAWAL_PASSWORD },
    headers: { 'idempotency-key': randomUUID() },
  });
  const ms = performance.now() - t0;
  if (a.status !== 200) throw new Error(`Withdraw All -> ${a.status} ${a.body.slice(0, 200)}`);
  return ms;
}

/** One GET as an administrator, timed. */
export async function timedGet(base: string, token: string, path: string): Promise<number> {
  const t0 = performance.now();
  const a = await call(base, 'GET', path, { token });
  const ms = performance.now() - t0;
  if (a.status !== 200) throw new Error(`GET ${path} -> ${a.status} ${a.body.slice(0, 200)}`);
  return ms;
}
