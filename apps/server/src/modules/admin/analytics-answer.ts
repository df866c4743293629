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

/** The last answer of each period: its parts and the text sent (memory bound: one per period). */
interface Answer {
  head: string;
  parts: readonly (readonly [string, string, string])[];
  text: Analytics;
}
const lastAnswers = new Map<number, Answer>();

/** The same parts as `answer`'s (each day's three texts, compared by reference first). */
function sameParts(answer: Answer, head: string, entries: readonly DayEntries[]): boolean {
  if (answer.head !== head || answer.parts.length !== entries.length) return false;
  for (let i = 0; i < entries.length; i++) {
    const a = answer.parts[i];
    const b = entries[i]?.json;
    if (a !== b && (a?.[0] !== b?.[0] || a?.[1] !== b?.[1] || a?.[2] !== b?.[2])) return false;
  }
  return true;
}

/**
 * The analytics answer for `days` (in order, every day present) from each day's figures, as JSON text.
 * When the head and every day's entries are the same text as the last answer of that period, that
 * answer's text is sent again: the same bytes, not joined again (a live day's entries are made again
 * on each request, equal in text while its figures are).
 */
export function analyticsAnswer(
  head: Pick<Analytics, 'period' | 'timeZone' | 'summary'>,
  days: readonly string[],
  figures: (day: string) => DayMetrics | undefined,
): Analytics {
  const entries = days.map((day) => dayEntries(day, figures(day)));
  const headJson =
    `{"period":${JSON.stringify(head.period)},"timeZone":${JSON.stringify(head.timeZone)},` +
    `"summary":${serialize().summary(head.summary)}`;
  const last = lastAnswers.get(head.period);
  if (last && sameParts(last, headJson, entries)) return last.text;
  const list = (i: 0 | 1 | 2) => `[${entries.map((e) => e.json[i]).join(',')}]`;
  const json = `${headJson},"userGrowth":${list(0)},"investmentTrends":${list(1)},"depositTrends":${list(2)}}`;
  const text = jsonText(json, () => ({
    ...head,
    userGrowth: entries.map((e) => e.user),
    investmentTrends: entries.map((e) => e.investment),
    depositTrends: entries.map((e) => e.deposit),
  }));
  lastAnswers.set(head.period, { head: headJson, parts: entries.map((e) => e.json), text });
  return text;
}
