import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { cycleEarnings, investments, tiers, withdrawals } from '../../../db/schema.ts';
import { inTransaction } from '../../../db/tx.ts';
import { post } from '../../../ledger/ledger.ts';
import type { TestApp } from '../../../../test/helpers.ts';

/**
 * Test-only money sources for withdrawals, written the way the investments and referral
 * modules write them: a business row plus its one ledger transaction.
 */
export async function makeTier(t: TestApp, amount = 100_000_000n, rateScaled = 15_000): Promise<string> {
  const [tier] = await t.ctx.db
    .insert(tiers)
    .values({ name: `Tier ${randomUUID().slice(0, 6)}`, amount, dailyRateScaled: rateScaled })
    .returning({ id: tiers.id });
  if (!tier) throw new Error('tier not inserted');
  return tier.id;
}

/** An investment whose principal is test-funded straight into `invested`. */
export async function makeInvestment(
  t: TestApp,
  userId: string,
  amount = 100_000_000n,
  tierName = 'Silver',
): Promise<string> {
  const tierId = await makeTier(t, amount);
  return inTransaction(t.ctx.db, async (tx) => {
    const [inv] = await tx
      .insert(investments)
      .values({ userId, tierId, tierName, amount, dailyRateScaled: 15_000 })
      .returning({ id: investments.id });
    if (!inv) throw new Error('investment not inserted');
    await post(tx, {
      kind: 'investment',
      refId: inv.id,
      legs: [
        { account: { userId, kind: 'invested' }, amount },
        { account: { platform: 'platform_adjustments' }, amount: -amount },
      ],
    });
    return inv.id;
  });
}

/** A completed cycle's earning: cycle_earnings row + ledger post into `earnings`. */
export async function makeEarning(
  t: TestApp,
  userId: string,
  investmentId: string,
  gross: bigint,
  cycleNumber?: number,
): Promise<string> {
  return inTransaction(t.ctx.db, async (tx) => {
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`COALESCE(MAX(${cycleEarnings.cycleNumber}), 0)::int` })
      .from(cycleEarnings)
      .where(eq(cycleEarnings.investmentId, investmentId));
    const [ce] = await tx
      .insert(cycleEarnings)
      .values({ investmentId, userId, cycleNumber: cycleNumber ?? n + 1, grossAmount: gross })
      .returning({ id: cycleEarnings.id });
    if (!ce) throw new Error('cycle earning not inserted');
    await tx
      .update(investments)
      .set({
        totalEarned: sql`${investments.totalEarned} + ${gross}`,
        cyclesCompleted: sql`${investments.cyclesCompleted} + 1`,
      })
      .where(eq(investments.id, investmentId));
    await post(tx, {
      kind: 'cycle_earning',
      refId: ce.id,
      legs: [
        { account: { userId, kind: 'earnings' }, amount: gross },
        { account: { platform: 'platform_earning_expense' }, amount: -gross },
      ],
    });
    return ce.id;
  });
}

/**
 * Many earnings at once (set-based, for the 1,000-earning test): cycle numbers 1..count on
 * one investment, each with its own `cycle_earning` ledger transaction.
 */
export async function makeManyEarnings(
  t: TestApp,
  userId: string,
  investmentId: string,
  count: number,
  gross: bigint,
): Promise<void> {
  await inTransaction(t.ctx.db, async (tx) => {
    await tx.execute(sql`INSERT INTO cycle_earnings (investment_id, user_id, cycle_number, gross_amount)
      SELECT ${investmentId}::uuid, ${userId}::uuid, n, ${gross}::bigint FROM generate_series(1, ${count}::int) AS n`);
    await tx.execute(
      sql`INSERT INTO ledger_transactions (kind, ref_id) SELECT 'cycle_earning', id::text FROM cycle_earnings WHERE investment_id = ${investmentId}::uuid`,
    );
    await tx.execute(sql`INSERT INTO ledger_entries (transaction_id, account_id, amount)
      SELECT t.id, a.id, ${gross}::bigint FROM ledger_transactions t JOIN cycle_earnings c ON t.kind = 'cycle_earning' AND t.ref_id = c.id::text
      JOIN ledger_accounts a ON a.user_id = ${userId}::uuid AND a.kind = 'earnings' WHERE c.investment_id = ${investmentId}::uuid
      UNION ALL
      SELECT t.id, a.id, -${gross}::bigint FROM ledger_transactions t JOIN cycle_earnings c ON t.kind = 'cycle_earning' AND t.ref_id = c.id::text
      JOIN ledger_accounts a ON a.user_id IS NULL AND a.kind = 'platform_earning_expense' WHERE c.investment_id = ${investmentId}::uuid`);
    await tx.execute(
      sql`UPDATE ledger_accounts SET balance = balance + ${gross * BigInt(count)}::bigint WHERE user_id = ${userId}::uuid AND kind = 'earnings'`,
    );
  });
}

/** Referral rewards, test-funded into `rewards`. */
export async function fundRewards(t: TestApp, userId: string, micro: bigint): Promise<void> {
  await inTransaction(t.ctx.db, (tx) =>
    post(tx, {
      kind: 'test_funding',
      refId: randomUUID(),
      legs: [
        { account: { userId, kind: 'rewards' }, amount: micro },
        { account: { platform: 'platform_reward_expense' }, amount: -micro },
      ],
    }),
  );
}

export async function withdrawalsOf(t: TestApp, userId: string) {
  return t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, userId));
}

export const WALLET = '0x2222222222222222222222222222222222222222';
export const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
