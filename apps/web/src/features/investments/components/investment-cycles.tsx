import { toast } from 'react-toastify';
import { CYCLE_MS } from '@harvest/shared/constants';
import { TEXT } from '@harvest/shared/texts';
import { cycleEarning, formatUsdc, microToUsdc, parseUsdc, rateToScaled } from '@harvest/shared/money';
import type { Investment } from '@harvest/shared/schemas/dashboard';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useCompleteCycle } from '../api/complete-cycle.ts';
import { useStartEarning } from '../api/start-earning.ts';
import { countdownText, useServerNow } from './use-server-now.ts';

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

const usdc6 = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });

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
}

/** The Investments tab's "Investment Cycles": one card per investment with its cycle state and actions. */
export function InvestmentCycles({
  investments,
  serverTime,
  receivedAt,
  platformDay,
  platformWeekday,
}: InvestmentCyclesProps) {
  const now = useServerNow(serverTime, receivedAt);
  return (
    <Card title="Investment Cycles">
      {investments.length === 0 ? (
        <p className="text-slate-600">You have no investments yet. Choose a tier in the Tiers tab to start earning.</p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {investments.map((inv) => (
            <li key={inv._id}>
              <InvestmentCard inv={inv} now={now} platformDay={platformDay} platformWeekday={platformWeekday} />
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
}: {
  inv: Investment;
  now: number;
  platformDay?: string;
  platformWeekday?: boolean;
}) {
  const start = useStartEarning();
  const complete = useCompleteCycle();
  const state = cycleState(inv, now, platformDay);
  const earning = perCycle(inv);
  const hasEarnings = inv.cycleEarnings.length > 0;

  async function onStart() {
    try {
      toast.success((await start.mutateAsync(inv._id)).message);
    } catch (err) {
      toast.error(errorText(err, TEXT.startFailed));
    }
  }
  async function onComplete() {
    try {
      toast.success((await complete.mutateAsync(inv._id)).message);
    } catch (err) {
      toast.error(errorText(err, TEXT.completeFailed));
    }
  }

  return (
    <article
      className="h-full rounded-xl border border-purple-100 bg-white p-4 shadow-sm"
      aria-label={`${inv.tier} investment`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="text-lg font-bold text-purple-900">{inv.tier}</h3>
          <p className="text-sm text-slate-600">
            {formatUsdc(inv.amount)} USDC · {inv.dailyRate}% daily
          </p>
        </div>
        <StateBadge state={state} />
      </div>

      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-slate-500">Total earned</dt>
          <dd className="font-semibold text-emerald-700">{usdc6(inv.totalEarned)} USDC</dd>
        </div>
        <div>
          <dt className="text-slate-500">Cycles completed</dt>
          <dd className="font-semibold">{inv.cycleEarnings.length}</dd>
        </div>
        {earning !== null && (
          <div className="col-span-2">
            <dt className="text-slate-500">Earning per cycle</dt>
            <dd className="font-semibold">{usdc6(earning)} USDC</dd>
          </div>
        )}
      </dl>

      <div className="mt-4 space-y-3">
        {state.kind === 'running' && (
          <>
            <p className="text-sm text-slate-700">
              Earning in progress: <span className="font-mono font-semibold">{countdownText(state.endsAt - now)}</span>{' '}
              left
            </p>
            <Progress value={1 - (state.endsAt - now) / CYCLE_MS} />
          </>
        )}
        {state.kind === 'complete' && (
          <>
            <p className="text-sm text-slate-700">The 8-hour cycle is finished. Complete it to record your earning.</p>
            {platformWeekday === false && <p className="text-sm text-amber-700">{TEXT.weekendComplete}</p>}
            <Button
              variant="success"
              className="w-full"
              onClick={() => void onComplete()}
              disabled={complete.isPending}
            >
              {complete.isPending ? 'Completing...' : 'Complete Cycle'}
            </Button>
          </>
        )}
        {state.kind === 'waiting' && (
          <p className="text-sm text-slate-700">
            Your withdrawal was approved. The next cycle is available in{' '}
            <span className="font-mono font-semibold">{countdownText(state.until - now)}</span>.
          </p>
        )}
        {state.kind === 'doneToday' && (
          <p className="text-sm text-slate-700">
            Today's cycle is done. You can start the next cycle tomorrow (Mon-Fri).
          </p>
        )}
        {state.kind === 'ready' && (
          <>
            {platformWeekday === false && <p className="text-sm text-amber-700">Cycles start Monday through Friday.</p>}
            <Button className="w-full" onClick={() => void onStart()} disabled={start.isPending}>
              {start.isPending
                ? 'Starting...'
                : hasEarnings
                  ? 'Start New Cycle (Mon-Fri only)'
                  : 'Start Earning (Mon-Fri only)'}
            </Button>
          </>
        )}
      </div>
    </article>
  );
}

function StateBadge({ state }: { state: CycleState }) {
  const [text, tone] =
    state.kind === 'running'
      ? ['Earning in progress', 'bg-sky-100 text-sky-800']
      : state.kind === 'complete'
        ? ['Ready to complete', 'bg-emerald-100 text-emerald-800']
        : state.kind === 'waiting'
          ? ['Waiting for next cycle', 'bg-amber-100 text-amber-800']
          : state.kind === 'doneToday'
            ? ['Next cycle tomorrow', 'bg-slate-100 text-slate-700']
            : ['Ready to start earning', 'bg-purple-100 text-purple-800'];
  return <span className={`rounded-full px-3 py-1 text-xs font-semibold ${tone}`}>{text}</span>;
}

function Progress({ value }: { value: number }) {
  const pct = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label="Cycle progress"
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
