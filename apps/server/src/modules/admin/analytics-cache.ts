import { ANALYTICS_PERIODS } from '@harvest/shared/constants';
import type { AppContext } from '../../context.ts';
import { analyticsRead, type DayMetrics, type HeldDays, type Totals } from './admin.queries.ts';

/**
 * Per server instance, the figures of closed platform days (closed for the database, before its
 * today - 1 in the rollups' zone, and before the app's today) with the rollup version they were read
 * under. A request reads the version, the live days and the totals in one statement, and the closed
 * days only when the version moved or the cache lacks them (docs/decisions/0048-analytics-closed-days-cache.md).
 */
interface ClosedDays extends HeldDays {
  /** Days of lo..hi with any figure; a day of the range without an entry had none. */
  days: ReadonlyMap<string, DayMetrics>;
}

/** The most days kept: the longest period (memory bound: about 90 days x 7 figures per instance). */
export const CACHED_DAYS_MAX = Math.max(...ANALYTICS_PERIODS);

const caches = new WeakMap<AppContext, { closed: ClosedDays | null }>();

/** YYYY-MM-DD plus n calendar days. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + n)).toISOString().slice(0, 10);
}

const ranges = new Map<number, { startDay: string; days: string[] }>();

/** The `n` days from `startDay` on (remembered per length: the same list all day long). */
export function dayRange(startDay: string, n: number): string[] {
  const last = ranges.get(n);
  if (last?.startDay === startDay) return last.days;
  const days = Array.from({ length: n }, (_, i) => addDays(startDay, i));
  ranges.set(n, { startDay, days });
  return days;
}

/** The figures of every day from `startDay` to `endDay` (the app's today), and the all-time totals. */
export async function dayFigures(
  ctx: AppContext,
  startDay: string,
  endDay: string,
): Promise<{ figures: (day: string) => DayMetrics | undefined; totals: Totals }> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = { closed: null }));
  // Requests run concurrently: this one uses the cache as it was when it asked (entries are replaced, never changed).
  const held = cache.closed;
  const read = await analyticsRead(ctx.db, startDay, endDay, held);
  cache.closed = nextClosed(cache.closed, read, startDay);
  return {
    figures: (day) => (day < read.readFrom ? held?.days.get(day) : read.days.get(day)),
    totals: read.totals,
  };
}

/** The cache after a read: the closed days it read added (same version) or in place of the old ones. */
function nextClosed(
  current: ClosedDays | null,
  read: { version: bigint; liveFrom: string; readFrom: string; days: ReadonlyMap<string, DayMetrics> },
  startDay: string,
): ClosedDays | null {
  // A slower request that saw an older version must not replace what a newer one cached.
  if (current && read.version < current.version) return current;
  const lo = read.readFrom;
  const hi = addDays(read.liveFrom, -1);
  if (lo > hi) return current?.version === read.version ? current : null;
  const fresh = [...read.days].filter(([day]) => day <= hi);
  const joins = current?.version === read.version && lo <= addDays(current.hi, 1) && current.lo <= addDays(hi, 1);
  let next: ClosedDays;
  if (current && joins) {
    const days = new Map([...current.days].filter(([day]) => day < lo || day > hi));
    for (const [day, m] of fresh) days.set(day, m);
    next = {
      version: read.version,
      lo: current.lo < lo ? current.lo : lo,
      hi: current.hi > hi ? current.hi : hi,
      days,
    };
  } else {
    // Read from startDay: every closed day of the period is in `fresh` (or had no figure).
    if (lo !== startDay) return current;
    next = { version: read.version, lo, hi, days: new Map(fresh) };
  }
  const floor = addDays(next.hi, -(CACHED_DAYS_MAX - 1));
  if (next.lo >= floor) return next;
  return { ...next, lo: floor, days: new Map([...next.days].filter(([day]) => day >= floor)) };
}
