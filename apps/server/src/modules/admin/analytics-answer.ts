import { microToUsdc } from '@harvest/shared/money';
import { analyticsSummary, dayAmount, dayCount, type Analytics } from '@harvest/shared/schemas/admin';
import { jsonText, partSerializer } from '../../lib/response-serializer.ts';
import type { DayMetrics } from './admin.queries.ts';

/**
 * The analytics answer from each day's figures (docs/decisions/0059-analytics-pre-serialized-days.md).
 * A closed day's figures come from the analytics cache, the same object request after request, so its
 * entries and their JSON are made once and reused; a day without figures is the same for every request
 * of that date. A request builds and serializes only the live days (today and yesterday) and the summary.
 */

/** One day of the three analytics series, as the answer carries it, and its JSON (one text per series). */
interface DayEntries {
  user: Analytics['userGrowth'][number];
  investment: Analytics['investmentTrends'][number];
  deposit: Analytics['depositTrends'][number];
  json: readonly [string, string, string];
}

const entriesByFigures = new WeakMap<DayMetrics, DayEntries>();
const emptyEntries = new Map<string, DayEntries>();

// Compiled on the first answer, not at start (idle RSS, as lib/response-serializer.ts).
let serializers: {
  count: (d: DayEntries['user']) => string;
  amount: (d: DayEntries['deposit']) => string;
  summary: (d: Analytics['summary']) => string;
} | null = null;
function serialize() {
  return (serializers ??= {
    count: partSerializer(dayCount),
    amount: partSerializer(dayAmount),
    summary: partSerializer(analyticsSummary),
  });
}

function dayEntries(day: string, m: DayMetrics | undefined): DayEntries {
  const known = m ? entriesByFigures.get(m) : emptyEntries.get(day);
  if (known?.user._id === day) return known;
  const v = (k: string) => m?.get(k) ?? 0n;
  const user = { _id: day, count: Number(v('registrations')) };
  const investment = {
    _id: day,
    totalAmount: microToUsdc(v('investments.amount')),
    count: Number(v('investments.count')),
  };
  const deposit = {
    _id: day,
    totalAmount: microToUsdc(v('deposits.demo.amount') + v('deposits.real.amount')),
    count: Number(v('deposits.demo.count') + v('deposits.real.count')),
  };
  const s = serialize();
  const entries: DayEntries = {
    user,
    investment,
    deposit,
    json: [s.count(user), s.amount(investment), s.amount(deposit)],
  };
  if (m) entriesByFigures.set(m, entries);
  else {
    if (emptyEntries.size >= 400) emptyEntries.clear();
    emptyEntries.set(day, entries);
  }
  return entries;
}

/** The analytics answer for `days` (in order, every day present) from each day's figures, as JSON text. */
export function analyticsAnswer(
  head: Pick<Analytics, 'period' | 'timeZone' | 'summary'>,
  days: readonly string[],
  figures: (day: string) => DayMetrics | undefined,
): Analytics {
  const entries = days.map((day) => dayEntries(day, figures(day)));
  const list = (i: 0 | 1 | 2) => `[${entries.map((e) => e.json[i]).join(',')}]`;
  const json =
    `{"period":${JSON.stringify(head.period)},"timeZone":${JSON.stringify(head.timeZone)},` +
    `"summary":${serialize().summary(head.summary)},"userGrowth":${list(0)},"investmentTrends":${list(1)},` +
    `"depositTrends":${list(2)}}`;
  return jsonText(json, () => ({
    ...head,
    userGrowth: entries.map((e) => e.user),
    investmentTrends: entries.map((e) => e.investment),
    depositTrends: entries.map((e) => e.deposit),
  }));
}
