import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';

export interface DueReminder {
  userId: string;
  tierName: string;
  amount: bigint;
  dailyRateScaled: number;
  cycleEndTime: Date;
}

/**
 * Claims up to `limit` running cycles that ended by `now` and were not reminded yet, of opted-in investors who are
 * not blocked: the conditional UPDATE marks each once, and rows another sweep (or a complete) holds are skipped
 * and re-checked on the next pass, so two instances never claim one cycle.
 */
export async function claimDueReminders(tx: Tx, now: Date, limit: number): Promise<DueReminder[]> {
  const at = now.toISOString();
  const rows = await rawRows<{
    user_id: string;
    tier_name: string;
    amount: bigint;
    daily_rate_scaled: number;
    cycle_end_time: Date;
  }>(
    tx,
    sql`UPDATE investments SET cycle_reminder_sent_at = ${at}::timestamptz
      WHERE id IN (
        SELECT i.id FROM investments i JOIN users u ON u.id = i.user_id
        WHERE i.earning_started AND i.cycle_reminder_sent_at IS NULL AND i.cycle_end_time <= ${at}::timestamptz
          AND u.cycle_reminders AND NOT u.is_blocked
        ORDER BY i.cycle_end_time
        LIMIT ${limit}
        FOR UPDATE OF i SKIP LOCKED)
      AND earning_started AND cycle_reminder_sent_at IS NULL
      RETURNING user_id, tier_name, amount, daily_rate_scaled, cycle_end_time`,
  );
  return rows.map((r) => ({
    userId: r.user_id,
    tierName: r.tier_name,
    amount: r.amount,
    dailyRateScaled: r.daily_rate_scaled,
    cycleEndTime: r.cycle_end_time,
  }));
}
