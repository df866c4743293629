import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ANALYTICS_PERIODS, DEFAULT_ANALYTICS_PERIOD } from '@harvest/shared/constants';
import { TEXT } from '@harvest/shared/texts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, StatCard } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useQuery } from '@tanstack/react-query';
import { analyticsQuery } from '../api/analytics.ts';
import { count, dayLabel, usdc, usdcTick } from '../../../lib/format.ts';
import { roundTicks } from '../lib/ticks.ts';
import { t } from '../../../lib/i18n.tsx';

/** One accent colour for every chart (the app's purple). */
const BAR = '#7e22ce';

interface Point {
  day: string;
  value: number;
  /** Rows behind the day's figure: the "last 7 entries" are the last seven days with activity. */
  count: number;
}

function DayChart({
  title,
  unit,
  data,
  format,
  integer = false,
}: {
  title: string;
  /** What the bars count, shown above the axis ("USDC per day"). */
  unit: string;
  data: Point[];
  format: (v: number) => string;
  integer?: boolean;
}) {
  const last7 = data
    .filter((p) => p.count > 0)
    .slice(-7)
    .reverse();
  const ticks = roundTicks(Math.max(0, ...data.map((p) => p.value)), integer);
  const tickText = integer ? count : usdcTick;
  // Room for the longest tick label (about 7 px a character at 11 px), so "1,000,000" is never cut or crowded.
  const axisWidth = Math.max(32, 12 + 7 * Math.max(...ticks.map((t) => tickText(t).length)));
  return (
    <Card title={title}>
      {/* The unit above the axis, in the page's flow: inside the chart it collided with the top tick. */}
      <p className="-mt-1 mb-1 text-xs text-slate-600">{unit}</p>
      <div className="h-56 w-full" role="img" aria-label={t('{title} per day, bar chart', { title })}>
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height: 224 }}>
          <BarChart data={data} margin={{ top: 16, right: 8, left: 0, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" tickFormatter={dayLabel} fontSize={11} minTickGap={12} />
            <YAxis
              fontSize={11}
              width={axisWidth}
              ticks={ticks}
              domain={[0, ticks[ticks.length - 1] ?? 1]}
              interval={0}
              tickFormatter={tickText}
            />
            <Tooltip labelFormatter={(l) => dayLabel(String(l))} formatter={(v) => [format(Number(v)), title]} />
            <Bar dataKey="value" fill={BAR} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <h3 className="mt-3 text-sm font-semibold text-slate-700">{t('Last 7 entries')}</h3>
      <ul className="mt-1 divide-y divide-slate-100 text-sm">
        {last7.map((p) => (
          <li key={p.day} className="flex justify-between py-1">
            <span className="text-slate-500">{dayLabel(p.day)}</span>
            <span className="font-medium text-slate-900">{format(p.value)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Admin analytics (spec): period buttons 7/14/30/90 (default 30), summary cards, four bar charts. */
export function AnalyticsPanel() {
  const [period, setPeriod] = useState<number>(DEFAULT_ANALYTICS_PERIOD);
  const q = useQuery(analyticsQuery(period));

  return (
    <div className="space-y-6">
      <Card title={t('Analytics')}>
        <div role="group" aria-label={t('Period')} className="flex flex-wrap gap-2">
          {ANALYTICS_PERIODS.map((p) => (
            <Button
              key={p}
              variant={period === p ? 'primary' : 'secondary'}
              aria-pressed={period === p}
              onClick={() => setPeriod(p)}
            >
              {t('{n} days', { n: p })}
            </Button>
          ))}
        </div>
        {q.data && (
          <p className="mt-2 text-xs text-slate-500">
            {t('Days in the platform time zone ({zone}).', { zone: q.data.timeZone })}
          </p>
        )}
      </Card>
      <QueryState
        query={q}
        what={t('analytics')}
        fallback={TEXT.analyticsFailed}
        frame={(state) => <Card>{state}</Card>}
      >
        {(data) => (
          <>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <StatCard label={t('Total Users')} value={count(data.summary.totalUsers)} />
              <StatCard label={t('Total Investments')} value={usdc(data.summary.totalInvestments)} tone="sky" />
              <StatCard label={t('Total Deposits')} value={usdc(data.summary.totalDeposits)} tone="emerald" />
              <StatCard label={t('Admin Adjustments (net)')} value={usdc(data.summary.totalAdjustments)} tone="sky" />
            </div>
            <div className="grid grid-cols-1 gap-6 lg:grid-cols-2" aria-busy={q.isFetching}>
              <DayChart
                title={t('New Registrations')}
                unit={t('People per day')}
                integer
                format={count}
                data={data.userGrowth.map((d) => ({ day: d._id, value: d.count, count: d.count }))}
              />
              <DayChart
                title={t('Investment Amount')}
                unit={t('USDC per day')}
                format={usdc}
                data={data.investmentTrends.map((d) => ({ day: d._id, value: d.totalAmount, count: d.count }))}
              />
              <DayChart
                title={t('Deposits Received')}
                unit={t('USDC per day')}
                format={usdc}
                data={data.depositTrends.map((d) => ({ day: d._id, value: d.totalAmount, count: d.count }))}
              />
              <DayChart
                title={t('Number of Investments')}
                unit={t('Investments per day')}
                integer
                format={count}
                data={data.investmentTrends.map((d) => ({ day: d._id, value: d.count, count: d.count }))}
              />
            </div>
          </>
        )}
      </QueryState>
    </div>
  );
}
