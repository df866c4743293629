import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { registrationsPerDay } from '../../ledger/rollups.queries.ts';

/** One day's sums per metric (a metric without rows is absent: 0). */
export type DayMetrics = Map<string, bigint>;

const SERIES_METRICS = ['investment.count', 'investment.amount', 'deposit.count', 'deposit.amount'];

/**
 * The analytics series of the platform days `startDay`..`endDay`: the money from the daily rollups (at most days x
 * metrics x slots rows; Deposits Received are the deposit transactions, dated by confirmation), `registrations`
 * counted on the users' created_at index.
 */
export async function analyticsDays(db: Db, startDay: string, endDay: string): Promise<Map<string, DayMetrics>> {
  const [rows, registrations] = await Promise.all([
    rawRows<{ day: string; metric: string; n: string }>(
      db,
      sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, metric, sum(n)::text AS n FROM rollups
        WHERE metric IN (${sql.join(
          SERIES_METRICS.map((m) => sql`${m}`),
          sql`, `,
        )}) AND day BETWEEN ${startDay}::date AND ${endDay}::date
        GROUP BY 1, 2`,
    ),
    registrationsPerDay(db, startDay, endDay),
  ]);
  const days = new Map<string, DayMetrics>();
  const add = (day: string, metric: string, n: bigint) => {
    const m = days.get(day) ?? new Map<string, bigint>();
    m.set(metric, n);
    days.set(day, m);
  };
  for (const r of rows) add(r.day, r.metric, BigInt(r.n));
  for (const [day, n] of registrations) add(day, 'registrations', n);
  return days;
}
