import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { percentOf } from '@harvest/shared/money';
import { REFERRAL_RATES_PERCENT } from '@harvest/shared/constants';
import type { TestApp } from '../../../test/helpers.ts';
import { inTransaction } from '../../db/tx.ts';
import { cycleEarnings, deposits, investments, referralRewards, tiers, users, withdrawals } from '../../db/schema.ts';
import { post } from '../../ledger/ledger.ts';

/**
 * Test-only seeding for the back office: business rows written directly with Drizzle, each
 * with the ledger transaction the real flow would post, so the books stay balanced.
 */

const hash = () => `0x${randomBytes(32).toString('hex')}`;
const addr = () => `0x${randomBytes(20).toString('hex')}`;

export async function setCreatedAt(t: TestApp, userId: string, at: Date | string): Promise<void> {
  await t.ctx.db
    .update(users)
    .set({ createdAt: new Date(at) })
    .where(eq(users.id, userId));
}

export async function seedDeposit(
  t: TestApp,
  userId: string,
  o: {
    amount: bigint;
    status?: 'pending' | 'confirmed' | 'failed';
    at?: Date | string;
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
        createdAt: o.at ? new Date(o.at) : new Date(),
        processedAt: status === 'confirmed' ? new Date() : null,
        failureReason: status === 'failed' ? 'Transaction not found on chain' : null,
      })
      .returning();
    if (!d) throw new Error('deposit not inserted');
    if (status === 'confirmed') {
      await post(tx, {
        kind: 'deposit',
        refId: d.id,
        legs: [
          { account: { userId, kind: 'balance' }, amount: o.amount },
          { account: { platform: 'platform_deposits' }, amount: -o.amount },
        ],
      });
    }
    return d.id;
  });
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
    const [inv] = await tx
      .insert(investments)
      .values({
        userId,
        tierId: tier.id,
        tierName: tier.name,
        amount: tier.amount,
        dailyRateScaled: tier.dailyRateScaled,
        createdAt: o.at ? new Date(o.at) : new Date(),
      })
      .returning();
    if (!inv) throw new Error('investment not inserted');
    await post(tx, {
      kind: 'investment',
      refId: inv.id,
      legs: [
        { account: { userId, kind: 'balance' }, amount: -tier.amount },
        { account: { userId, kind: 'invested' }, amount: tier.amount },
      ],
    });
    for (const [i, referrer] of (o.referrers ?? []).slice(0, 3).entries()) {
      const rate = REFERRAL_RATES_PERCENT[i];
      if (rate === undefined) continue;
      const amount = percentOf(tier.amount, rate);
      const [r] = await tx
        .insert(referralRewards)
        .values({
          userId: referrer,
          fromUserId: userId,
          investmentId: inv.id,
          level: i + 1,
          amount,
          createdAt: o.at ? new Date(o.at) : new Date(),
        })
        .returning();
      if (!r) throw new Error('reward not inserted');
      await post(tx, {
        kind: 'referral_reward',
        refId: r.id,
        legs: [
          { account: { userId: referrer, kind: 'rewards' }, amount },
          { account: { platform: 'platform_reward_expense' }, amount: -amount },
        ],
      });
    }
    return inv.id;
  });
}

/** One completed cycle earning on an investment (earnings account, total_earned). */
export async function seedCycleEarning(
  t: TestApp,
  userId: string,
  investmentId: string,
  cycleNumber: number,
  gross: bigint,
): Promise<void> {
  await inTransaction(t.ctx.db, async (tx) => {
    const [c] = await tx
      .insert(cycleEarnings)
      .values({ investmentId, userId, cycleNumber, grossAmount: gross })
      .returning();
    if (!c) throw new Error('cycle earning not inserted');
    const [inv] = await tx.select().from(investments).where(eq(investments.id, investmentId));
    if (!inv) throw new Error('investment missing');
    await tx
      .update(investments)
      .set({ totalEarned: inv.totalEarned + gross, cyclesCompleted: inv.cyclesCompleted + 1 })
      .where(eq(investments.id, investmentId));
    await post(tx, {
      kind: 'cycle_earning',
      refId: c.id,
      legs: [
        { account: { userId, kind: 'earnings' }, amount: gross },
        { account: { platform: 'platform_earning_expense' }, amount: -gross },
      ],
    });
  });
}

/** A pending balance withdrawal: the money is held in pending_withdrawal. */
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
        requestedAt: o.at ? new Date(o.at) : new Date(),
        notes: o.notes ?? null,
      })
      .returning();
    if (!w) throw new Error('withdrawal not inserted');
    await post(tx, {
      kind: 'withdrawal_hold',
      refId: w.id,
      legs: [
        { account: { userId, kind: 'balance' }, amount: -o.amount },
        { account: { userId, kind: 'pending_withdrawal' }, amount: o.amount },
      ],
    });
    return w.id;
  });
}

/** Lines of a CSV body (CRLF separated), without the final empty one. */
export function csvLines(body: string): string[] {
  return body.split('\r\n').filter((l, i, all) => !(l === '' && i === all.length - 1));
}
