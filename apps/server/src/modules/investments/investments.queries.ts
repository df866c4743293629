import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cycleEarnings, investments, referralRewards } from '../../db/schema.ts';

export type InvestmentRow = typeof investments.$inferSelect;
export type CycleEarningRow = typeof cycleEarnings.$inferSelect;

export async function insertInvestment(
  db: Db,
  values: typeof investments.$inferInsert & { createdAt: Date },
): Promise<InvestmentRow> {
  const [row] = await db.insert(investments).values(values).returning();
  if (!row) throw new Error('investment not inserted');
  return row;
}

export async function insertReferralReward(db: Db, values: typeof referralRewards.$inferInsert & { createdAt: Date }) {
  const [row] = await db.insert(referralRewards).values(values).returning();
  if (!row) throw new Error('referral reward not inserted');
  return row;
}

/** The caller's own investment, row-locked for a state change (undefined: missing or not theirs). */
export async function lockOwnInvestment(
  db: Db,
  userId: string,
  investmentId: string,
): Promise<InvestmentRow | undefined> {
  const [row] = await db
    .select()
    .from(investments)
    .where(and(eq(investments.id, investmentId), eq(investments.userId, userId)))
    .for('update')
    .limit(1);
  return row;
}

/**
 * Starts a cycle only from the idle state and only once per platform day: a conditional
 * update, so a second racer (or a stale read) changes nothing and gets undefined.
 */
export async function markCycleStarted(
  db: Db,
  id: string,
  now: Date,
  endTime: Date,
  day: string,
): Promise<InvestmentRow | undefined> {
  const [row] = await db
    .update(investments)
    .set({
      earningStarted: true,
      earningCompleted: false,
      cycleStartedAt: now,
      cycleEndTime: endTime,
      lastCycleDay: day,
      cycleReminderSentAt: null,
    })
    .where(
      and(
        eq(investments.id, id),
        eq(investments.earningStarted, false),
        sql`${investments.lastCycleDay} IS DISTINCT FROM ${day}::date`,
        sql`(${investments.nextCycleAvailableAt} IS NULL OR ${investments.nextCycleAvailableAt} <= ${now})`,
      ),
    )
    .returning();
  return row;
}

/** Completes the running cycle number `cycleNumber` (conditional on the state read under lock). */
export async function markCycleCompleted(
  db: Db,
  id: string,
  cycleNumber: number,
  gross: bigint,
  now: Date,
): Promise<InvestmentRow | undefined> {
  const [row] = await db
    .update(investments)
    .set({
      earningStarted: false,
      earningCompleted: true,
      cycleEndTime: null,
      totalEarned: sql`${investments.totalEarned} + ${gross}::bigint`,
      cyclesCompleted: sql`${investments.cyclesCompleted} + 1`,
    })
    .where(
      and(
        eq(investments.id, id),
        eq(investments.earningStarted, true),
        eq(investments.cyclesCompleted, cycleNumber - 1),
        sql`${investments.cycleEndTime} <= ${now}`,
      ),
    )
    .returning();
  return row;
}

/**
 * One cycle's earning. Its id begins with its owner's (hf_owner_uuid, db/functions.sql): a user's earnings share
 * a few pages of the primary key, which Withdraw All updates once per earning (decision 0058).
 */
export async function insertCycleEarning(
  db: Db,
  values: typeof cycleEarnings.$inferInsert & { createdAt: Date },
): Promise<CycleEarningRow> {
  const [row] = await db
    .insert(cycleEarnings)
    .values({ ...values, id: values.id ?? sql`hf_owner_uuid(${values.userId}::uuid)` })
    .returning();
  if (!row) throw new Error('cycle earning not inserted');
  return row;
}
