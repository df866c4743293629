import { useId } from 'react';
import { toast } from '../../../lib/toast.ts';
import { CYCLE_MS, WITHDRAWAL_COOLDOWN_MS } from '@harvest/shared/constants';
import { TEXT } from '@harvest/shared/texts';
import { cycleEarning, microToUsdc, parseUsdc, rateToScaled } from '@harvest/shared/money';
import type { DashboardResponse, Investment } from '@harvest/shared/schemas/dashboard';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useCompleteCycle } from '../api/complete-cycle.ts';
import { useStartEarning } from '../api/start-earning.ts';
import { countdownText, useServerNow } from './use-server-now.ts';
import { dateTime, isPlatformWeekend, percent, usdc, weekdayTime } from '../../../lib/format.ts';
import { rich, t } from '../../../lib/i18n.tsx';
import { sayReceipt } from '../../../lib/server-text.ts';

export type CycleState =
  | { kind: 'running'; endsAt: number }
  | { kind: 'complete'; endsAt: number }
  | { kind: 'waiting'; until: number }
  | { kind: 'doneToday' }
  | { kind: 'ready' };

/** The investment-cycle state of the spec (section 6) at server time `now`. */
export function cycleState(inv: Investment, now: number, platformDay?: string): CycleState {
  if (inv.earningStarted && inv.cycleEndTime) {
    const endsAt = Date.parse(inv.cycleEndTime);
    return now < endsAt ? { kind: 'running', endsAt } : { kind: 'complete', endsAt };
  }
  if (inv.nextCycleAvailableAt) {
    const until = Date.parse(inv.nextCycleAvailableAt);
    if (now < until) return { kind: 'waiting', until };
  }
  if (platformDay && inv.lastCycleDay === platformDay) return { kind: 'doneToday' };
  return { kind: 'ready' };
}

function perCycle(inv: Investment): number | null {
  const amount = parseUsdc(inv.amount);
  const rate = rateToScaled(inv.dailyRate);
  return amount === null || rate === null ? null : microToUsdc(cycleEarning(amount, rate));
}

export interface InvestmentCyclesProps {
  investments: Investment[];
  /** From the dashboard answer: the server's clock, and when that answer arrived (ms). */
  serverTime?: string;
  receivedAt: number;
  platformDay?: string;
  platformWeekday?: boolean;
  /** From the dashboard answer: a cycle started now, its end and its first completion by the platform's rules. */
  cycleStartedNow?: CycleStartedNow;
}

type CycleStartedNow = NonNullable<DashboardResponse['cycleStartedNow']>;

/** The Investments tab's "Investment Cycles": one card per investment with its cycle state and actions. */
export function InvestmentCycles({
  investments,
  serverTime,
  receivedAt,
  platformDay,
  platformWeekday,
  cycleStartedNow,
}: InvestmentCyclesProps) {
  const now = useServerNow(serverTime, receivedAt);
  return (
    <Card title={t('Investment Cycles')}>
      {investments.length === 0 ? (
        <p className="text-slate-600">
          {t('You have no investments yet. Choose a tier in the Tiers tab to start earning.')}
        </p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {investments.map((inv) => (
            <li key={inv._id}>
              <InvestmentCard
                inv={inv}
                now={now}
                platformDay={platformDay}
                platformWeekday={platformWeekday}
                cycleStartedNow={cycleStartedNow}
              />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function InvestmentCard({
  inv,
  now,
  platformDay,
  platformWeekday,
  cycleStartedNow,
}: {
  inv: Investment;
  now: number;
  platformDay?: string;
  platformWeekday?: boolean;
  cycleStartedNow?: CycleStartedNow;
}) {
  const start = useStartEarning();
  const complete = useCompleteCycle();
  const state = cycleState(inv, now, platformDay);
  const weekend = platformWeekday === false;
  const earning = perCycle(inv);
  const hasEarnings = inv.cycleEarnings.length > 0;
  const mondayNoteId = useId();
  // A cycle started now that ends at the weekend: the Start button warns of its Monday first.
  const monday =
    cycleStartedNow && cycleStartedNow.completableFrom !== cycleStartedNow.endTime ? cycleStartedNow : null;

  async function onStart() {
    try {
      toast.success((await start.mutateAsync(inv._id)).message);
    } catch (err) {
      toast.error(errorText(err, TEXT.startFailed));
    }
  }
  async function onComplete() {
    try {
      toast.success(sayReceipt(await complete.mutateAsync(inv._id)));
    } catch (err) {
      toast.error(errorText(err, TEXT.completeFailed));
    }
  }

  return (
    <article
      className="h-full rounded-xl border border-purple-100 bg-white p-4 shadow-sm"
      aria-label={t('{tier} investment', { tier: inv.tier })}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="text-lg font-bold text-purple-900">{inv.tier}</h3>
          <p className="text-sm text-slate-600">
            {usdc(inv.amount)} · {t('{rate} daily', { rate: percent(inv.dailyRate) })}
          </p>
        </div>
        <StateBadge state={state} weekend={weekend} />
      </div>

      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-slate-600">{t('Total earned')}</dt>
          <dd className="font-semibold text-emerald-700">{usdc(inv.totalEarned)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('Cycles completed')}</dt>
          <dd className="font-semibold">{inv.cycleEarnings.length}</dd>
        </div>
        {earning !== null && (
          <div className="col-span-2">
            <dt className="text-slate-600">{t('Earning per cycle')}</dt>
            <dd className="font-semibold">{usdc(earning)}</dd>
          </div>
        )}
      </dl>

      <div className="mt-4 space-y-3">
        {state.kind === 'running' && (
          <>
            <p className="text-sm text-slate-700">
              {rich(
                t('Earning in progress: <0>{left}</0> left (ends {end})', {
                  left: countdownText(state.endsAt - now),
                  end: weekdayTime(new Date(state.endsAt)),
                }),
                [(text) => <span className="font-mono font-semibold">{text}</span>],
              )}
            </p>
            <Progress label={t('Cycle progress')} value={1 - (state.endsAt - now) / CYCLE_MS} />
            {isPlatformWeekend(state.endsAt) && (
              <p className="text-sm text-amber-900">
                {t('It ends on a weekend: you can complete it on Monday (earnings are completed Monday to Friday).')}
              </p>
            )}
          </>
        )}
        {state.kind === 'complete' && (
          <>
            <p className="text-sm text-slate-700">
              {t('The 8-hour cycle is finished. Complete it to record your earning.')}
            </p>
            {weekend && <p className="text-sm font-medium text-amber-900">{t(TEXT.weekendComplete)}</p>}
            <Button
              variant="success"
              className="w-full"
              onClick={() => void onComplete()}
              disabled={complete.isPending || weekend}
            >
              {complete.isPending ? t('Completing...') : t('Complete Cycle')}
            </Button>
          </>
        )}
        {state.kind === 'waiting' && (
          <>
            <p className="text-sm text-slate-700">
              {rich(
                t('Your withdrawal was approved. The next cycle is available in <0>{left}</0> ({end}).', {
                  left: countdownText(state.until - now),
                  end: weekdayTime(new Date(state.until)),
                }),
                [(text) => <span className="font-mono font-semibold">{text}</span>],
              )}
            </p>
            <Progress label={t('48-hour wait')} value={1 - (state.until - now) / WITHDRAWAL_COOLDOWN_MS} />
          </>
        )}
        {state.kind === 'doneToday' && (
          <p className="text-sm text-slate-700">
            {t("Today's cycle is done. You can start the next cycle tomorrow (Mon-Fri).")}
          </p>
        )}
        {state.kind === 'ready' && (
          <>
            {weekend ? (
              <p className="text-sm font-medium text-amber-900">{t(TEXT.weekdayStart)}</p>
            ) : (
              monday && (
                <p id={mondayNoteId} className="rounded-lg bg-amber-50 p-3 text-sm font-medium text-amber-900">
                  {t(
                    'A cycle started now ends {end}, at the weekend: it can only be completed on Monday, from {from}.',
                    { end: weekdayTime(monday.endTime), from: dateTime(monday.completableFrom) },
                  )}
                </p>
              )
            )}
            <Button
              className="w-full"
              onClick={() => void onStart()}
              disabled={start.isPending || weekend}
              aria-describedby={!weekend && monday ? mondayNoteId : undefined}
            >
              {start.isPending
                ? t('Starting...')
                : hasEarnings
                  ? t('Start New Cycle (Mon-Fri only)')
                  : t('Start Earning (Mon-Fri only)')}
            </Button>
          </>
        )}
      </div>
    </article>
  );
}

function StateBadge({ state, weekend }: { state: CycleState; weekend: boolean }) {
  const [text, tone] =
    state.kind === 'running'
      ? [t('Earning in progress'), 'bg-sky-100 text-sky-800']
      : state.kind === 'complete'
        ? weekend
          ? [t('Complete on Monday'), 'bg-amber-100 text-amber-900']
          : [t('Ready to complete'), 'bg-emerald-100 text-emerald-800']
        : state.kind === 'waiting'
          ? [t('Waiting for next cycle'), 'bg-amber-100 text-amber-800']
          : state.kind === 'doneToday'
            ? [t('Next cycle tomorrow'), 'bg-slate-100 text-slate-700']
            : [t('Ready to start earning'), 'bg-purple-100 text-purple-800'];
  return <span className={`rounded-full px-3 py-1 text-xs font-semibold ${tone}`}>{text}</span>;
}

function Progress({ value, label }: { value: number; label: string }) {
  const pct = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className="h-full rounded-full bg-gradient-to-r from-purple-600 to-emerald-500 transition-[width]"
        style={{ width: `${pct}%` }}
      />
    </div>
  );
}
