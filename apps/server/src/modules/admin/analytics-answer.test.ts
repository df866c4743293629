import { analyticsResponse } from '@harvest/shared/schemas/admin';
import { describe, expect, it } from 'vitest';
import type { DayMetrics } from './admin.queries.ts';
import { analyticsAnswer } from './analytics-answer.ts';
import { dayRange } from './analytics-cache.ts';

/**
 * The analytics answer's text (docs/decisions/0059-analytics-pre-serialized-days.md): an answer equal in
 * every part to the last one of its period is sent as the same text, and any part that differs, a live
 * day's figure, the summary, the days themselves or the zone, makes a new one that says so.
 */
const text = (a: unknown) => (a as { json: string }).json;
const parsed = (a: unknown) => analyticsResponse.parse(JSON.parse(text(a)));
const summary = { totalUsers: 3, totalInvestments: 25, totalDeposits: 57, totalAdjustments: 0 };
const head = { period: 7, timeZone: 'UTC', summary };
const figures = (m: Record<string, Record<string, bigint>>) => {
  const byDay = new Map<string, DayMetrics>(Object.entries(m).map(([day, f]) => [day, new Map(Object.entries(f))]));
  return (day: string) => byDay.get(day);
};

describe('analyticsAnswer', () => {
  const days = dayRange('2026-11-19', 7);
  const closed = figures({
    '2026-11-20': { registrations: 2n, 'deposits.real.amount': 50_000_000n, 'deposits.real.count': 1n },
  });
  const fig = (today: bigint) => {
    const live = figures({ '2026-11-25': { registrations: today } });
    return (day: string) => closed(day) ?? live(day);
  };

  it("is the same text for the same parts, and a new one when a live day's figure moves", () => {
    const first = analyticsAnswer(head, days, fig(1n));
    // Today's figures are a new object on each read: equal text, the same answer.
    const again = analyticsAnswer(head, days, fig(1n));
    expect(again).toBe(first);
    expect(parsed(first).userGrowth.map((d) => d.count)).toEqual([0, 2, 0, 0, 0, 0, 1]);
    const moved = analyticsAnswer(head, days, fig(2n));
    expect(moved).not.toBe(first);
    expect(parsed(moved).userGrowth.at(-1)).toEqual({ _id: '2026-11-25', count: 2 });
    expect(parsed(moved).depositTrends[1]).toEqual({ _id: '2026-11-20', totalAmount: 50, count: 1 });
  });

  it('is a new text for another summary, zone, day range or period', () => {
    const base = parsed(analyticsAnswer(head, days, fig(1n)));
    const richer = parsed(analyticsAnswer({ ...head, summary: { ...summary, totalUsers: 4 } }, days, fig(1n)));
    expect(richer.summary.totalUsers).toBe(4);
    expect(richer.userGrowth).toEqual(base.userGrowth);
    expect(parsed(analyticsAnswer({ ...head, timeZone: 'America/New_York' }, days, fig(1n))).timeZone).toBe(
      'America/New_York',
    );
    const nextDay = parsed(analyticsAnswer(head, dayRange('2026-11-20', 7), fig(1n)));
    expect(nextDay.userGrowth.map((d) => d._id)).toEqual(dayRange('2026-11-20', 7));
    expect(nextDay.userGrowth.map((d) => d.count)).toEqual([2, 0, 0, 0, 0, 1, 0]);
    const longer = parsed(analyticsAnswer({ ...head, period: 14 }, dayRange('2026-11-12', 14), fig(1n)));
    expect(longer.period).toBe(14);
    expect(longer.userGrowth).toHaveLength(14);
    // Back to the first parts: the text says what they say.
    expect(parsed(analyticsAnswer(head, days, fig(1n)))).toEqual(base);
  });
});
