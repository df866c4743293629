import { parseUsdc } from '@harvest/shared/money';
import { sql } from 'drizzle-orm';
import { rawRows } from '../../src/db/raw.ts';
import { sessionToken, type TestApp } from '../helpers.ts';
import { insertTiers } from '../../src/modules/tiers/tiers.queries.ts';

/** Test-only helpers shared by the investment test files. */
export function usdcMicro(text: string): bigint {
  const v = parseUsdc(text);
  if (v === null) throw new Error(`bad amount ${text}`);
  return v;
}

export async function addTier(
  t: TestApp,
  name: string,
  amount: string,
  rateScaled: number,
  active = true,
): Promise<void> {
  await insertTiers(t.ctx.db, [
    {
      name,
      amount: usdcMicro(amount),
      dailyRateScaled: rateScaled,
      active,
      sortOrder: 100,
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    },
  ]);
}

export function at(t: TestApp, iso: string): void {
  t.clock.set(new Date(iso));
}

export async function countRows(
  t: TestApp,
  table: 'investments' | 'cycle_earnings' | 'referral_rewards',
  userId: string,
): Promise<number> {
  const rows = await rawRows<{ n: number }>(
    t.ctx.db,
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE user_id = ${userId}::uuid`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** A token signed at the test clock's current time (the clock moves days back and forth). */
export function tokenNow(t: TestApp, u: { user: { id: string; tokenVersion: number } }): Promise<string> {
  return sessionToken(t, u.user.id, u.user.tokenVersion);
}
