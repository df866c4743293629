import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { percentOf } from '@harvest/shared/money';
import { REFERRAL_RATES_PERCENT } from '@harvest/shared/constants';
import type { Tx } from '../../src/db/client.ts';
import {
  cycleEarnings,
  deposits,
  investments,
  referralRewards,
  tiers,
  users,
  withdrawals,
} from '../../src/db/schema.ts';
import { inTransaction } from '../../src/db/tx.ts';
import { post, postMany, rowTransfers, userTransfer } from '../../src/ledger/ledger.ts';
import type { TestApp } from '../helpers.ts';

/**
 * Test-only money sources: business rows written directly with Drizzle, each with the one ledger
 * transaction the real flow would post (through `post`/`postMany`, never by hand), so the books
 * stay balanced and `expectLedgerClean` holds.
 */

const hash = () => `0x${randomBytes(32).toString('hex')}`;
const addr = () => `0x${randomBytes(20).toString('hex')}`;
const at = (when: Date | string | undefined) => (when ? new Date(when) : new Date());

export const WALLET = '0x2222222222222222222222222222222222222222';
export const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

export async function setCreatedAt(t: TestApp, userId: string, when: Date | string): Promise<void> {
  await t.ctx.db
    .update(users)
    .set({ createdAt: new Date(when) })
    .where(eq(users.id, userId));
}

export async function seedTier(t: TestApp, o: { name?: string; amount: bigint; rateScaled: number; active?: boolean }) {
  const [tier] = await t.ctx.db
    .insert(tiers)
    .values({
      name: o.name ?? `Tier ${randomUUID().slice(0, 6)}`,
      amount: o.amount,
      dailyRateScaled: o.rateScaled,
      active: o.active ?? true,
      sortOrder: 500,
    })
    .returning();
  if (!tier) throw new Error('tier not inserted');
  return tier;
}

export async function seedDeposit(
  t: TestApp,
  userId: string,
  o: {
    amount: bigint;
    status?: 'pending' | 'confirmed' | 'failed';
    at?: Date | string;
    /** When it was confirmed (default: when it was submitted). */
    confirmedAt?: Date | string;
    fromAddress?: string;
    note?: string | null;
  },
): Promise<string> {
  const status = o.status ?? 'confirmed';
  return inTransaction(t.ctx.db, async (tx) => {
    const [d] = await tx
      .insert(deposits)
      .values({
        userId,
        amount: o.amount,
        status,
        type: 'demo',
        txHash: hash(),
        logIndex: 0,
        fromAddress: o.fromAddress ?? addr(),
        note: o.note ?? null,
        createdAt: at(o.at),
        processedAt: status === 'confirmed' ? (o.confirmedAt ? new Date(o.confirmedAt) : at(o.at)) : null,
        failureReason: status === 'failed' ? 'Transaction not found on chain' : null,
      })
      .returning();
    if (!d) throw new Error('deposit not inserted');
    if (status === 'confirmed') {
      // Booked when it was confirmed, as confirmAndCredit books it.
      await post(tx, {
        ...userTransfer('deposit', d.id, userId, { from: 'platform_deposits', to: 'balance', amount: o.amount }),
        createdAt: d.processedAt ?? undefined,
      });
    }
    return d.id;
  });
}

async function insertInvestment(
  tx: Tx,
  userId: string,
  tier: typeof tiers.$inferSelect,
  when: Date | string | undefined,
): Promise<string> {
  const [inv] = await tx
    .insert(investments)
    .values({
      userId,
      tierId: tier.id,
      tierName: tier.name,
      amount: tier.amount,
      dailyRateScaled: tier.dailyRateScaled,
      createdAt: at(when),
    })
    .returning({ id: investments.id });
  if (!inv) throw new Error('investment not inserted');
  return inv.id;
}

/**
 * An investment bought from the user's balance, as the invest flow does: tier terms copied,
 * balance -> invested, and the 10/3/1% rewards of up to three referrers.
 */
export async function seedInvestment(
  t: TestApp,
  userId: string,
  tier: typeof tiers.$inferSelect,
  o: { at?: Date | string; referrers?: string[] } = {},
): Promise<string> {
  return inTransaction(t.ctx.db, async (tx) => {
    const id = await insertInvestment(tx, userId, tier, o.at);
    await post(tx, {
      ...userTransfer('investment', id, userId, { from: 'balance', to: 'invested', amount: tier.amount }),
      createdAt: at(o.at),
    });
    for (const [i, referrer] of (o.referrers ?? []).slice(0, 3).entries()) {
      const rate = REFERRAL_RATES_PERCENT[i];
      if (rate === undefined) continue;
      const amount = percentOf(tier.amount, rate);
      const [r] = await tx
        .insert(referralRewards)
        .values({ userId: referrer, fromUserId: userId, investmentId: id, level: i + 1, amount, createdAt: at(o.at) })
        .returning();
      if (!r) throw new Error('reward not inserted');
      await post(tx, {
        ...userTransfer('referral_reward', r.id, referrer, { from: 'platform_reward_expense', to: 'rewards', amount }),
        createdAt: at(o.at),
      });
    }
    return id;
  });
}

/** An investment (in a tier of its own) whose principal is test-funded straight into `invested`. */
export async function seedFundedInvestment(
  t: TestApp,
  userId: string,
  amount = 100_000_000n,
  tierName = 'Silver',
): Promise<string> {
  const tier = await seedTier(t, { amount, rateScaled: 15_000 });
  return inTransaction(t.ctx.db, async (tx) => {
    const id = await insertInvestment(tx, userId, { ...tier, name: tierName }, undefined);
    await post(tx, userTransfer('investment', id, userId, { from: 'platform_adjustments', to: 'invested', amount }));
    return id;
  });
}

/** A completed cycle's earning (the next cycle number unless given): `earnings` account and the investment's totals. */
export async function seedCycleEarning(
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
    await post(
      tx,
      userTransfer('cycle_earning', ce.id, userId, { from: 'platform_earning_expense', to: 'earnings', amount: gross }),
    );
    return ce.id;
  });
}

/**
 * Many earnings at once (set-based, for the 1,000-earning test): cycle numbers 1..count on one
 * investment, each with its own `cycle_earning` ledger transaction (one postMany).
 */
export async function seedManyCycleEarnings(
  t: TestApp,
  userId: string,
  investmentId: string,
  count: number,
  gross: bigint,
): Promise<void> {
  await inTransaction(t.ctx.db, async (tx) => {
    await tx.execute(sql`INSERT INTO cycle_earnings (investment_id, user_id, cycle_number, gross_amount)
      SELECT ${investmentId}::uuid, ${userId}::uuid, n, ${gross}::bigint FROM generate_series(1, ${count}::int) AS n`);
    await postMany(
      tx,
      rowTransfers('cycle_earning', 'cycle_earnings', {
        where: sql`t.investment_id = ${investmentId}::uuid`,
        amount: sql`t.gross_amount`,
        from: 'platform_earning_expense',
        to: 'earnings',
      }),
    );
  });
}

/**
 * A pending balance withdrawal: the money is held in pending_withdrawal by the withdrawal's own
 * `withdrawal_hold` (the older form of Withdraw All's hold, which ledger:check still accepts).
 */
export async function seedWithdrawal(
  t: TestApp,
  userId: string,
  o: { amount: bigint; at?: Date | string; notes?: string | null },
): Promise<string> {
  return inTransaction(t.ctx.db, async (tx) => {
    const [w] = await tx
      .insert(withdrawals)
      .values({
        userId,
        requestId: randomUUID(),
        source: 'balance',
        status: 'pending',
        amount: o.amount,
        feeAmount: 0n,
        netAmount: o.amount,
        walletAddress: addr(),
        requestedAt: at(o.at),
        notes: o.notes ?? null,
      })
      .returning();
    if (!w) throw new Error('withdrawal not inserted');
    await post(
      tx,
      userTransfer('withdrawal_hold', w.id, userId, { from: 'balance', to: 'pending_withdrawal', amount: o.amount }),
    );
    return w.id;
  });
}

export async function withdrawalsOf(t: TestApp, userId: string) {
  return t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, userId));
}
