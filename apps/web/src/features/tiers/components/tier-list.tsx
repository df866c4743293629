import { useState } from 'react';
import { toast } from 'react-toastify';
import { TEXT } from '@harvest/shared/texts';
import { cycleEarning, formatUsdc, microToUsdc, parseUsdc, rateToScaled } from '@harvest/shared/money';
import type { Tier } from '@harvest/shared/schemas/investments';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useInvest } from '../api/invest.ts';
import { useQuery } from '@tanstack/react-query';
import { tiersQuery } from '../../../lib/query-keys.ts';

/** Gross earning of one 8-hour cycle, as the server computes it (rounded down to the micro-unit). */
function perCycle(t: Tier): number | null {
  const amount = parseUsdc(t.amount);
  const rate = rateToScaled(t.dailyRate);
  return amount === null || rate === null ? null : microToUsdc(cycleEarning(amount, rate));
}

/**
 * The Tiers tab: a card per active tier with Invest Now, and a confirmation before money
 * moves. `balance` (USDC) is shown in the confirmation when the caller knows it.
 */
export function TierList({ balance }: { balance?: number }) {
  const tiers = useQuery(tiersQuery());
  const [chosen, setChosen] = useState<Tier | null>(null);

  if (tiers.isPending)
    return (
      <Card title="Investment Tiers">
        <p role="status" className="text-slate-500">
          Loading tiers...
        </p>
      </Card>
    );
  if (tiers.isError)
    return (
      <Card
        title="Investment Tiers"
        actions={
          <Button variant="secondary" onClick={() => void tiers.refetch()}>
            Retry
          </Button>
        }
      >
        <p className="text-slate-600">{errorText(tiers.error, 'Could not load the investment tiers.')}</p>
      </Card>
    );

  return (
    <Card title="Investment Tiers">
      {tiers.data.tiers.length === 0 ? (
        <p className="text-slate-600">No investment tiers are available right now.</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {tiers.data.tiers.map((t) => (
            <li
              key={t._id}
              className="flex flex-col rounded-xl border border-purple-100 bg-gradient-to-br from-white to-purple-50 p-4 shadow-sm"
            >
              <h3 className="text-lg font-bold text-purple-900">{t.name}</h3>
              <p className="mt-2 text-2xl font-bold text-slate-900">{formatUsdc(t.amount)} USDC</p>
              <p className="mt-1 text-sm text-slate-600">
                Daily rate: <span className="font-semibold text-emerald-700">{t.dailyRate}%</span>
              </p>
              <Button className="mt-4" onClick={() => setChosen(t)} aria-label={`Invest Now in ${t.name}`}>
                Invest Now
              </Button>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-4 text-xs text-slate-500">
        Investments are available Monday through Friday. Daily rates are set by the platform operator and are not
        guaranteed.
      </p>
      <ConfirmInvest tier={chosen} balance={balance} onClose={() => setChosen(null)} />
    </Card>
  );
}

function ConfirmInvest({ tier, balance, onClose }: { tier: Tier | null; balance?: number; onClose: () => void }) {
  const investMutation = useInvest();
  const earning = tier ? perCycle(tier) : null;
  const short = tier !== null && balance !== undefined && balance < tier.amount;

  async function confirm() {
    if (!tier) return;
    try {
      const res = await investMutation.mutateAsync(tier.amount);
      toast.success(res.message);
      onClose();
    } catch (err) {
      toast.error(errorText(err, TEXT.investFailed));
    }
  }

  return (
    <Dialog open={tier !== null} onClose={onClose} title="Confirm investment">
      {tier && (
        <div className="space-y-4">
          <p className="text-slate-700">
            Invest <strong>{formatUsdc(tier.amount)} USDC</strong> in the <strong>{tier.name}</strong> tier?
          </p>
          <dl className="space-y-1 rounded-lg bg-slate-50 p-3 text-sm">
            <div className="flex justify-between gap-2">
              <dt className="text-slate-500">Paid from your USDC balance</dt>
              <dd className="font-semibold">{formatUsdc(tier.amount)} USDC</dd>
            </div>
            {balance !== undefined && (
              <div className="flex justify-between gap-2">
                <dt className="text-slate-500">Your balance</dt>
                <dd className={`font-semibold ${short ? 'text-red-600' : ''}`}>{formatUsdc(balance, 4)} USDC</dd>
              </div>
            )}
            <div className="flex justify-between gap-2">
              <dt className="text-slate-500">Daily rate</dt>
              <dd className="font-semibold">{tier.dailyRate}%</dd>
            </div>
            {earning !== null && (
              <div className="flex justify-between gap-2">
                <dt className="text-slate-500">Earning per completed 8-hour cycle</dt>
                <dd className="font-semibold">{earning} USDC</dd>
              </div>
            )}
          </dl>
          <p className="text-xs text-slate-500">
            The invested amount stays invested; you earn by running 8-hour cycles on weekdays.
          </p>
          {short && (
            <p className="text-sm text-red-600">
              Your balance is lower than this tier's amount. Please deposit USDC first.
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => void confirm()} disabled={investMutation.isPending}>
              {investMutation.isPending ? 'Investing...' : 'Confirm Investment'}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
