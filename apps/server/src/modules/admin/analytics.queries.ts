import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';

/** One day's sums per metric (a metric without rows is absent: 0). */
export type DayMetrics = Map<string, bigint>;

const SERIES_METRICS = [
  'registrations',
  'investments.count',
  'investments.amount',
  'deposits.demo.count',
  'deposits.real.count',
  'deposits.demo.amount',
  'deposits.real.amount',
];

/**
 * The analytics series of the platform days `startDay`..`endDay` from the rollups: at most days x metrics x
 * slots rows, whatever the number of users. Deposits Received are the deposits that count (hf_deposit_counts),
 * dated by confirmation.
 */
export async function analyticsDays(db: Db, startDay: string, endDay: string): Promise<Map<string, DayMetrics>> {
  const rows = await rawRows<{ day: string; metric: string; n: string }>(
    db,
    sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, metric, sum(n)::text AS n FROM rollups
        WHERE metric IN (${sql.join(
          SERIES_METRICS.map((m) => sql`${m}`),
          sql`, `,
        )}) AND day BETWEEN ${startDay}::date AND ${endDay}::date
        GROUP BY 1, 2`,
  );
  const days = new Map<string, DayMetrics>();
  for (const r of rows) {
    const m = days.get(r.day) ?? new Map<string, bigint>();
    m.set(r.metric, BigInt(r.n));
    days.set(r.day, m);
  }
  return days;
}
