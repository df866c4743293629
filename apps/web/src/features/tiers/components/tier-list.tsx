import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { cycleEarning, microToUsdc, parseUsdc, rateToScaled } from '@harvest/shared/money';
import type { Tier } from '@harvest/shared/schemas/investments';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useFailure } from '../../../lib/form.ts';
import { investBodyOf, useInvest } from '../api/invest.ts';
import { useQuery } from '@tanstack/react-query';
import { tiersQuery } from '../api/tiers.ts';
import { percent, usdc } from '../../../lib/format.ts';
import { rich, t } from '../../../lib/i18n.tsx';

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
export function TierList({ balance, weekday }: { balance?: number; weekday?: boolean }) {
  const tiers = useQuery(tiersQuery());
  const [chosen, setChosen] = useState<Tier | null>(null);
  // On a weekend Invest Now is off and says why, instead of being refused after the click.
  const weekend = weekday === false;

  return (
    <Card title={t('Investment Tiers')}>
      <QueryState query={tiers} what={t('the investment tiers')} lines={3}>
        {(data) => (
          <>
            {/* On a weekend the one reason comes first, before the buttons it turns off. */}
            {weekend && (
              <p
                id="tiers-weekend"
                role="note"
                className="mb-4 rounded-lg bg-amber-50 p-3 text-sm font-medium text-amber-900"
              >
                {t(TEXT.weekdayInvest)}
              </p>
            )}
            {data.tiers.length === 0 ? (
              <p className="text-slate-600">{t('No investment tiers are available right now.')}</p>
            ) : (
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {data.tiers.map((tier) => (
                  <li
                    key={tier._id}
                    className="flex flex-col rounded-xl border border-purple-100 bg-gradient-to-br from-white to-purple-50 p-4 shadow-sm"
                  >
                    <h3 className="text-lg font-bold text-purple-900">{tier.name}</h3>
                    <p className="mt-2 text-2xl font-bold text-slate-900">{usdc(tier.amount)}</p>
                    <p className="mt-1 text-sm text-slate-600">
                      {rich(t('Daily rate: <0>{rate}</0>', { rate: percent(tier.dailyRate) }), [
                        (text) => <span className="font-semibold text-emerald-700">{text}</span>,
                      ])}
                    </p>
                    <Button
                      className="mt-4"
                      onClick={() => setChosen(tier)}
                      disabled={weekend}
                      aria-label={t('Invest Now in {tier}', { tier: tier.name })}
                      aria-describedby={weekend ? 'tiers-weekend' : undefined}
                    >
                      {t('Invest Now')}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            <p className="mt-4 text-xs text-slate-600">
              {weekend
                ? t('Daily rates are set by the platform operator and are not guaranteed.')
                : t(
                    'Investments are available Monday through Friday. Daily rates are set by the platform operator and are not guaranteed.',
                  )}
            </p>
          </>
        )}
      </QueryState>
      <ConfirmInvest tier={chosen} balance={balance} onClose={() => setChosen(null)} />
    </Card>
  );
}

function ConfirmInvest({ tier, balance, onClose }: { tier: Tier | null; balance?: number; onClose: () => void }) {
  const investMutation = useInvest();
  const earning = tier ? perCycle(tier) : null;
  const short = tier !== null && balance !== undefined && balance < tier.amount;
  const failure = useFailure();

  async function confirm() {
    if (!tier) return;
    failure.clear();
    try {
      const res = await investMutation.mutateAsync(investBodyOf(tier));
      toast.success(res.message);
      onClose();
    } catch (err) {
      failure.set(err, TEXT.investFailed);
      toast.error(errorText(err, TEXT.investFailed));
    }
  }

  return (
    <Dialog open={tier !== null} onClose={onClose} title={t('Confirm investment')}>
      {tier && (
        <div className="space-y-4">
          <p className="text-slate-700">
            {rich(
              t('Invest <0>{amount}</0> in the <1>{tier}</1> tier?', { amount: usdc(tier.amount), tier: tier.name }),
              [(text) => <strong>{text}</strong>, (text) => <strong>{text}</strong>],
            )}
          </p>
          <dl className="space-y-1 rounded-lg bg-slate-50 p-3 text-sm">
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">{t('Paid from your USDC balance')}</dt>
              <dd className="font-semibold">{usdc(tier.amount)}</dd>
            </div>
            {balance !== undefined && (
              <div className="flex justify-between gap-2">
                <dt className="text-slate-600">{t('Your balance')}</dt>
                <dd className={`font-semibold ${short ? 'text-red-700' : ''}`}>{usdc(balance, 'balance')}</dd>
              </div>
            )}
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">{t('Daily rate')}</dt>
              <dd className="font-semibold">{percent(tier.dailyRate)}</dd>
            </div>
            {earning !== null && (
              <div className="flex justify-between gap-2">
                <dt className="text-slate-600">{t('Earning per completed 8-hour cycle')}</dt>
                <dd className="font-semibold">{usdc(earning)}</dd>
              </div>
            )}
          </dl>
          <p className="text-xs text-slate-600">
            {t('The invested amount stays invested; you earn by running 8-hour cycles on weekdays.')}
          </p>
          {short && (
            <p id="invest-short" className="text-sm text-red-700">
              {t("Your balance is lower than this tier's amount. Please deposit USDC first.")}
            </p>
          )}
          {failure.text && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
              {failure.text}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button
              onClick={() => void confirm()}
              disabled={investMutation.isPending || short}
              aria-describedby={short ? 'invest-short' : undefined}
            >
              {investMutation.isPending ? t('Investing...') : t('Confirm Investment')}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
